"""The persona page at thousands of entries: listed off the window's thread, newest first, and
every change patched as the rows it touches (never a reset), always equal to a fresh listing.

Counts, not times: the signals the list model emits, the rows it holds against a fresh window's
(a new folder object reading the same files), and what the page lets the person do meanwhile.
"""

from __future__ import annotations

import random
import threading
from pathlib import Path

import pytest
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
)

from memory_desk.core.persona import PersonaFolder, prompt_section
from memory_desk.ui.persona import listing as page_listing
from memory_desk.ui.persona.counts import Counts, status_for
from memory_desk.ui.persona.rename import RenameDialog
from memory_desk.ui.persona.rows import Separator, build_rows
from persona_files import agent_file
from window_helpers import wait_persona_read, wait_until

pytest_plugins = ["window_fixture"]

COUNT = 2000
WORDS = ("tea", "coffee", "garden", "night", "early", "short", "river", "stone", "fish")


def write_folder(path: Path, count: int = COUNT, seed: int = 5) -> Path:
    rng = random.Random(seed)
    path.mkdir(parents=True, exist_ok=True)
    for n in range(count):
        words = " ".join(rng.choice(WORDS) for _ in range(5))
        updated = f"2025-{1 + n % 12:02d}-{1 + n % 28:02d}T{n % 24:02d}:{n % 60:02d}:00.000Z"
        type_ = "feedback" if n % 3 else "user"
        (path / f"entry-{n:05d}.md").write_bytes(
            agent_file(f"entry-{n:05d}", f"About {words}", updated, f"Rule: {words}.", type_)
        )
    (path / "Not Kebab.md").write_bytes(b"no header at all\n")  # one the agent never sees
    return path


def row_keys(rows) -> list[str]:
    return [f"sep:{r.key}" if isinstance(r, Separator) else r.name for r in rows]


def model_rows(model) -> list:  # noqa: ANN001 - a PersonaListModel
    """Every row the model shows, entries and dividers, in order."""
    return [model.row_at(row) for row in range(model.rowCount())]


def fresh_rows(folder_path: Path) -> list[str]:
    """The rows a fresh window would show: a new folder object reading every file."""
    return row_keys(build_rows(PersonaFolder(folder_path).entries(), ""))


class Signals:
    """The list model's signals, counted."""

    def __init__(self, model) -> None:
        self.seen: list[str] = []
        model.modelReset.connect(lambda: self.seen.append("reset"))
        model.rowsMoved.connect(lambda *_a: self.seen.append("move"))
        model.rowsInserted.connect(lambda *_a: self.seen.append("insert"))
        model.rowsRemoved.connect(lambda *_a: self.seen.append("remove"))
        model.dataChanged.connect(lambda *_a: self.seen.append("changed"))

    def take(self) -> list[str]:
        seen, self.seen = self.seen, []
        return seen


@pytest.fixture
def big(tmp_path: Path, open_window, qtbot, monkeypatch):
    # files this fresh would count as changed at every look for 3 s (the racy-clean rule)
    monkeypatch.setattr("memory_desk.core.persona.reading.RACY_NS", 0)
    folder_path = write_folder(tmp_path / ".miyagi" / "memory")
    window = open_window(["--persona", str(folder_path)])
    wait_persona_read(window)
    return window, window.persona_page, folder_path


def check_equal_to_a_fresh_window(page, folder_path: Path) -> None:
    """Rows, status and the agent's view are what a fresh listing of the folder gives."""
    assert row_keys(model_rows(page.model)) == fresh_rows(folder_path)
    folder = PersonaFolder(folder_path)
    entries = folder.entries()
    assert page.status_text() == status_for(Counts.of(entries), bool(folder.problems()))
    assert page.agent_view.toPlainText() == prompt_section(entries)
    assert page.model.separator_rows() == [
        at for at, row in enumerate(model_rows(page.model)) if isinstance(row, Separator)
    ]


def open_entry(qtbot, window, name: str) -> None:
    page = window.persona_page
    view = window.findChild(QAbstractItemView, "personaList")
    view.setCurrentIndex(page.model.index(page.model.row_of(name), 0))
    qtbot.waitUntil(lambda: window.findChild(QLineEdit, "personaName").text() == name)


def test_every_kind_of_change_patches_its_rows_and_equals_a_fresh_window(
    qtbot, big, monkeypatch
) -> None:
    window, page, folder_path = big
    check_equal_to_a_fresh_window(page, folder_path)
    signals = Signals(page.model)
    body = window.findChild(QPlainTextEdit, "personaBody")
    save = window.findChild(QPushButton, "personaSave")

    # a save: the entry moves from far down to the top: one move, never a reset
    open_entry(qtbot, window, "entry-01500")
    signals.take()
    body.setPlainText("Saved from the window.")
    save.click()
    seen = signals.take()
    assert seen.count("move") == 1 and not {"reset", "insert", "remove"} & set(seen), seen
    assert page.model.row_of("entry-01500") == 0
    check_equal_to_a_fresh_window(page, folder_path)

    # a second save of the same entry, now on top: only changed rows
    body.setPlainText("Saved again.")
    save.click()
    seen = signals.take()
    assert set(seen) == {"changed"}, seen
    check_equal_to_a_fresh_window(page, folder_path)

    # create: one row in (the prompt's divider moves as changed rows)
    window.findChild(QPushButton, "personaNew").click()
    window.findChild(QLineEdit, "personaName").setText("brand-new-entry")
    window.findChild(QLineEdit, "personaDescription").setText("Something new")
    body.setPlainText("New body.")
    save.click()
    seen = signals.take()
    assert seen.count("insert") == 1 and "reset" not in seen and "remove" not in seen, seen
    check_equal_to_a_fresh_window(page, folder_path)

    # rename through the dialog: one row out and one in, or a move
    def exec_with_name(dialog: RenameDialog) -> int:
        dialog.name_edit.setText("renamed-entry")
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(RenameDialog, "exec", exec_with_name)
    open_entry(qtbot, window, "entry-00700")
    signals.take()
    window.findChild(QPushButton, "personaRename").click()
    seen = signals.take()
    assert "reset" not in seen and seen.count("insert") + seen.count("move") <= 1, seen
    check_equal_to_a_fresh_window(page, folder_path)

    # forget, then undo: one row out, then one row in
    open_entry(qtbot, window, "entry-00042")
    signals.take()
    window.findChild(QPushButton, "personaForget").click()
    seen = signals.take()
    assert seen.count("remove") == 1 and "reset" not in seen and "insert" not in seen, seen
    check_equal_to_a_fresh_window(page, folder_path)
    page.undo_stack.undo()
    seen = signals.take()
    assert seen.count("insert") == 1 and "reset" not in seen, seen
    check_equal_to_a_fresh_window(page, folder_path)

    # the agent rewrites one file and adds another: only those are read, the rows patched
    (folder_path / "entry-00900.md").write_bytes(
        agent_file("entry-00900", "Rewritten", "2024-01-01T00:00:00.000Z", "Old now.")
    )
    (folder_path / "from-the-agent.md").write_bytes(
        agent_file("from-the-agent", "Added", "2027-02-02T00:00:00.000Z", "New.")
    )
    page.reload()
    wait_persona_read(window)
    seen = signals.take()
    assert "reset" not in seen and len(seen) <= 12, seen
    check_equal_to_a_fresh_window(page, folder_path)


def test_a_change_while_filtered_equals_the_slow_path(qtbot, big) -> None:
    window, page, folder_path = big
    box = window.findChild(QLineEdit, "personaFilter")
    with qtbot.waitSignal(page.filter_applied):
        box.setText("garden")
    open_entry(qtbot, window, model_rows(page.model)[5].name)
    window.findChild(QPlainTextEdit, "personaBody").setPlainText("No more of that word.")
    window.findChild(QPushButton, "personaSave").click()
    expected = row_keys(build_rows(PersonaFolder(folder_path).entries(), "garden"))
    assert row_keys(model_rows(page.model)) == expected


class HeldListing:
    """Holds the page's listing worker after its first screen until released (the core's
    listing runs unchanged; only its timing is held, to look at the page meanwhile)."""

    def __init__(self, monkeypatch) -> None:
        self.release = threading.Event()
        self.first_screen = threading.Event()
        real = page_listing.list_folder

        def held(folder, report):
            def reporting(screen):
                report(screen)
                self.first_screen.set()
                self.release.wait(20)

            return real(folder, reporting if report is not None else None)

        monkeypatch.setattr(page_listing, "list_folder", held)
        monkeypatch.setattr("memory_desk.ui.persona.folder_reads.list_folder", held)


def test_the_listing_shows_the_newest_first_and_nothing_edits_until_all_are_in(
    qtbot, tmp_path: Path, open_window, monkeypatch
) -> None:
    folder_path = write_folder(tmp_path / "memory")
    held = HeldListing(monkeypatch)
    window = open_window(["--persona", str(folder_path)])
    page = window.persona_page
    reading = window.findChild(QLabel, "personaReading")
    wait_until(lambda: held.first_screen.is_set() and page.model.rowCount() > 0)
    try:
        assert page.is_listing() and reading.isVisible()
        assert "2,001" in reading.text()
        shown = [r for r in model_rows(page.model) if not isinstance(r, Separator)]
        assert len(shown) == page_listing.FIRST_SCREEN
        for name in ("personaNew", "personaSave", "personaRename", "personaForget"):
            assert not window.findChild(QPushButton, name).isEnabled(), name
        assert window.findChild(QPlainTextEdit, "personaBody").isReadOnly()
        assert page.entries() is None  # (the window does not count a partial listing)
        assert not page.save()
    finally:
        held.release.set()
    wait_persona_read(window)
    assert not reading.isVisible()
    assert row_keys(model_rows(page.model)) == fresh_rows(folder_path)
    assert not window.findChild(QPlainTextEdit, "personaBody").isReadOnly()
    assert window.findChild(QPushButton, "personaNew").isEnabled()
    assert len(page.entries()) == COUNT + 1


def test_a_newer_folder_drops_the_older_listing(
    qtbot, tmp_path: Path, open_window, monkeypatch
) -> None:
    first = write_folder(tmp_path / "first")
    second = write_folder(tmp_path / "second", count=3, seed=9)
    held = HeldListing(monkeypatch)
    window = open_window(["--persona", str(first)])
    page = window.persona_page
    wait_until(lambda: held.first_screen.is_set())
    page.set_folder(PersonaFolder(second))
    held.release.set()
    wait_persona_read(window)
    qtbot.wait(50)  # (the older worker's answer, had it been taken, would be in by now)
    assert row_keys(model_rows(page.model)) == fresh_rows(second)
    assert not page.is_listing()


def test_the_sidebar_takes_the_pages_count_instead_of_listing_the_folder_beside_it(
    qtbot, tmp_path: Path, open_window, monkeypatch
) -> None:
    """A second listing beside the page's fought it for the interpreter (the first screen
    took 1.5 s at 20,000 entries): the sidebar waits, and the page's listing counts."""
    from memory_desk.ui.sources import sidebar as sidebar_module

    folder_path = write_folder(tmp_path / "memory")
    (folder_path / "Bad Name.md").write_bytes(b"no header at all\n")  # a problem to count
    counted: list[str] = []
    from memory_desk.core.persona import scan  # (the sidebar imports its count from there)

    real_counts = scan.folder_counts
    monkeypatch.setattr(
        scan, "folder_counts", lambda path: counted.append(str(path)) or real_counts(path)
    )
    monkeypatch.setattr(sidebar_module, "FOLDER_COUNT_DELAY_MS", 60_000)  # (a slow machine)
    window = open_window(["--persona", str(folder_path)])
    page = window.persona_page
    wait_persona_read(window)
    assert counted == []  # the page counted it; the sidebar never listed the folder
    item = window.sidebar.tree.currentItem()
    assert item.text(1) == f"{len(page.entries()):,} ⚠"
    assert not window.sidebar.is_counting()
    # the page's counts follow its own changes, and the sidebar with them (no count of its own)
    view = window.findChild(QAbstractItemView, "personaList")
    view.setCurrentIndex(view.model().index(page.model.row_of("Bad Name"), 0))
    qtbot.waitUntil(lambda: page.current_name() == "Bad Name")
    before = len(page.entries())
    window.findChild(QPushButton, "personaForget").click()
    qtbot.waitUntil(lambda: len(page.entries()) == before - 1)
    entries = page.entries()
    assert page.counts() == (before - 1, sum(1 for e in entries if e.problems))
    assert item.text(1) == f"{before - 1:,} ⚠" and counted == []  # (those past the prompt)


def test_undo_waits_while_the_folder_is_listed_with_the_object_it_writes_through(
    qtbot, tmp_path: Path, open_window, monkeypatch
) -> None:
    """The listing worker reads with the page's own folder object, which the page's undo
    commands write through: Undo waits until every entry is in, even across a page switch."""
    folder_path = write_folder(tmp_path / "memory")
    window = open_window(["--persona", str(folder_path)])
    page = window.persona_page
    wait_persona_read(window)
    assert window.undo_group.activeStack() is page.undo_stack
    first = page.folder()
    other = write_folder(tmp_path / "other", count=3, seed=9)
    page.set_folder(PersonaFolder(other))
    wait_persona_read(window)
    held = HeldListing(monkeypatch)
    page.set_folder(first)  # the person comes back to it: listed again, with the same object
    wait_until(lambda: held.first_screen.is_set())
    try:
        assert page.holds_undo()
        assert window.undo_group.activeStack() is None
        window.show_page("observations")
        window.show_page("persona")
        assert window.undo_group.activeStack() is None  # a page switch does not give it back
    finally:
        held.release.set()
    wait_persona_read(window)
    assert not page.holds_undo()
    assert window.undo_group.activeStack() is page.undo_stack


def test_a_save_shows_the_agents_view_from_the_kept_count_without_counting_every_entry(
    qtbot, big, monkeypatch
) -> None:
    """The agent's view after a save takes how many entries the agent sees from the page's
    counts (kept per change) instead of summing every entry again (4 ms at 20,000)."""
    from memory_desk.ui.persona import agent_view as view_module

    window, page, folder_path = big
    calls: list[int | None] = []
    real = view_module.listed_prompt_parts
    monkeypatch.setattr(
        view_module,
        "listed_prompt_parts",
        lambda entries, visible=None: calls.append(visible) or real(entries, visible),
    )
    open_entry(qtbot, window, "entry-01500")
    window.findChild(QPlainTextEdit, "personaBody").setPlainText("Saved from the window.")
    window.findChild(QPushButton, "personaSave").click()
    assert calls and None not in calls
    check_equal_to_a_fresh_window(page, folder_path)
