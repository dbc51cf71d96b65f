"""The persona page at thousands of entries: counts, never times.

A save updates the one entry saved (one file read, the folder never listed again); the listing
updated in place equals a full listing after any change; the filter looks again only at what a
shorter text matched; the list asks only for the rows in sight; a live reload after the agent
rewrote one file reads that file only. Folders are real, written as agent-kit writes them.
"""

from __future__ import annotations

import dataclasses
import os
import random
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractItemView, QLineEdit, QPlainTextEdit, QPushButton

from memory_desk.core.persona import PROMPT_LIMIT, PersonaFolder
from memory_desk.core.persona.listing import Listing
from memory_desk.core.persona.reading import agent_written_entry
from memory_desk.ui.persona import model as list_model
from memory_desk.ui.persona import rows as persona_rows
from memory_desk.ui.persona.model import PersonaListModel
from memory_desk.ui.persona.rows import Separator, build_rows
from persona_files import agent_file, stamp
from window_helpers import wait_persona_read

pytest_plugins = ["window_fixture"]

STAT = os.stat_result((0o100644, 7, 1, 1, 0, 0, 120, 0, 0, 0))

WORDS = [
    "tea",
    "coffee",
    "garden",
    "night",
    "early",
    "short",
    "answers",
    "fish",
    "puns",
    "carmen",
    "river",
    "stone",
]


def write_folder(path: Path, count: int, seed: int = 1) -> Path:
    rng = random.Random(seed)
    path.mkdir(parents=True, exist_ok=True)
    for n in range(count):
        words = " ".join(rng.choice(WORDS) for _ in range(6))
        data = agent_file(f"entry-{n:05d}", f"About {words}", stamp(n), f"Rule: {words}.")
        (path / f"entry-{n:05d}.md").write_bytes(data)
    return path


class FileLog:
    """Which files under a folder were opened, and how often the folder was listed, seen by an
    audit hook (hooks cannot be removed: one serves every test, switched on by a fixture)."""

    active: FileLog | None = None
    installed = False

    def __init__(self, folder: Path) -> None:
        self.folder = os.path.realpath(folder)
        self.opened: Counter[str] = Counter()
        self.listings = 0

    @classmethod
    def hook(cls, event: str, args: tuple) -> None:
        log = cls.active
        if log is None or event not in ("open", "os.scandir"):
            return
        path = args[0]
        if isinstance(path, int) and event == "os.scandir":  # (a folder opened: its path)
            path = os.readlink(f"/proc/self/fd/{path}")
        if not isinstance(path, str | bytes | os.PathLike):
            return
        path = os.fsdecode(path)
        if not os.path.isabs(path):  # (a listing opens its files relative to the folder)
            path = os.path.join(log.folder, path)
        path = os.path.realpath(path)
        if event == "os.scandir" and path == log.folder:
            log.listings += 1
        elif event == "open" and os.path.dirname(path) == log.folder:
            log.opened[os.path.basename(path)] += 1

    def entry_files_opened(self) -> set[str]:
        """Entry files opened (Memory Desk's own hidden temporary files left out)."""
        return {name for name in self.opened if not name.startswith(".")}


@pytest.fixture
def file_log():
    def start(folder: Path) -> FileLog:
        if not FileLog.installed:
            sys.addaudithook(FileLog.hook)
            FileLog.installed = True
        FileLog.active = FileLog(folder)
        return FileLog.active

    yield start
    FileLog.active = None


def list_names(view: QAbstractItemView) -> list[str | None]:
    model = view.model()
    return [model.index(r, 0).data(Qt.ItemDataRole.UserRole) for r in range(model.rowCount())]


def shown_names(entries) -> list[str]:
    return [e.name for e in entries]


# -- the core: the listing updated in place is the full listing -----------------------------------


def test_refresh_after_any_change_equals_a_full_listing(tmp_path: Path, monkeypatch) -> None:
    """Random writes, deletions and renames past the prompt's limit, with ties in ``updated``
    and names the agent does not see; after each, the folder updated in place (by name, and by
    a cached re-listing) gives exactly what a fresh full listing gives."""
    monkeypatch.setattr("memory_desk.core.persona.reading.RACY_NS", 0)  # cache every file
    folder_path = tmp_path / "memory"
    write_folder(folder_path, 120)
    folder = PersonaFolder(folder_path, trash=tmp_path / "trash")
    folder.entries()
    rng = random.Random(7)
    clock = [1_700_000_000_000_000_000]

    def write(name: str, updated: str) -> None:
        path = folder_path / f"{name}.md"
        path.write_bytes(agent_file(name, f"d {rng.random()}", updated, "b" * rng.randint(1, 9)))
        clock[0] += 1_000_000_000  # (a distinct time: the cache tells versions by their stat)
        os.utime(path, ns=(clock[0], clock[0]))

    for step in range(300):
        names = [p.stem for p in folder_path.glob("*.md")]
        action = rng.choice(("rewrite", "rewrite", "tie", "delete", "create", "hidden"))
        name = rng.choice(names)
        if action == "rewrite":
            write(name, stamp(rng.randrange(400)))
        elif action == "tie":  # the same updated as another entry: the name decides
            write(name, rng.choice([e.updated for e in folder.entries()[:60]]))
        elif action == "delete" and len(names) > PROMPT_LIMIT:
            (folder_path / f"{name}.md").unlink()
        elif action == "create":
            name = f"new-{step}"
            write(name, stamp(rng.randrange(400)))
        else:
            name = f"Odd Name {step}"
            write(name, stamp(step))
        fresh = PersonaFolder(folder_path, trash=tmp_path / "trash").entries()
        updated = folder.refresh([name]) if step % 2 else folder.entries()
        assert updated == fresh, f"step {step}: {action} {name}"
        assert folder.entry_count() == len(fresh)
        assert folder.problem_count() == sum(1 for e in fresh if e.problems)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.from_regex(r"[a-z0-9]{1,3}(-[a-z0-9]{1,2})?", fullmatch=True),
            st.sampled_from([stamp(n) for n in range(6)]),  # (few times: many ties)
        ),
        unique_by=lambda pair: pair[0],
        max_size=PROMPT_LIMIT + 20,
    )
)
def test_the_listing_order_is_the_agents_with_ties_or_without(pairs) -> None:
    """Newest ``updated`` first, then by name, whether times are shared or not (the listing
    sorts once when no two are, twice when some are)."""
    template = agent_written_entry("a", Path("/f/a.md"), agent_file("a", "d", stamp(0), "b"), STAT)
    entries = [dataclasses.replace(template, name=n, updated=u) for n, u in pairs]
    listing = Listing()
    listing.replace_all(entries)
    expected = sorted(pairs, key=lambda pair: pair[0])
    expected.sort(key=lambda pair: pair[1], reverse=True)
    assert [e.name for e in listing.entries()] == [name for name, _u in expected]


def test_a_second_listing_reads_no_unchanged_file(tmp_path: Path, monkeypatch, file_log) -> None:
    monkeypatch.setattr("memory_desk.core.persona.reading.RACY_NS", 0)
    folder_path = write_folder(tmp_path / "memory", 300)
    folder = PersonaFolder(folder_path, trash=tmp_path / "trash")
    log = file_log(folder_path)
    first = folder.entries()
    assert len(log.entry_files_opened()) == 300 and log.listings == 1
    assert folder.entry_count() == 300
    log = file_log(folder_path)
    (folder_path / "entry-00007.md").write_bytes(agent_file("entry-00007", "New", stamp(9), "x."))
    again = folder.entries()
    assert log.entry_files_opened() == {"entry-00007.md"}
    assert log.listings == 1
    # the entries that did not change are the very objects of the first listing
    unchanged = {e.name: e for e in first if e.name != "entry-00007"}
    assert all(unchanged[e.name] is e for e in again if e.name in unchanged)


# -- the list model: the filter and the patches ----------------------------------------------------


def folder_entries(tmp_path: Path, count: int):
    folder_path = write_folder(tmp_path / "memory", count)
    (folder_path / "Not Kebab.md").write_bytes(b"no header, tea\n")
    return PersonaFolder(folder_path, trash=tmp_path / "trash").entries()


def _row_key(row) -> str:
    return f"sep:{row.key}" if isinstance(row, Separator) else row.name


def model_rows(model: PersonaListModel) -> list:
    """Every row the model shows, entries and dividers, in order."""
    return [model.row_at(row) for row in range(model.rowCount())]


def test_filter_results_equal_the_slow_path_for_many_texts(tmp_path: Path) -> None:
    entries = folder_entries(tmp_path, 200)
    model = PersonaListModel()
    model.set_entries(entries)
    rng = random.Random(3)
    for _ in range(300):
        word = rng.choice([*WORDS, "Not", "ENTRY-0001", " tea ", "zz", "", "user"])
        text = word[: rng.randint(0, len(word))]
        model.set_filter(text)
        expected = [_row_key(r) for r in build_rows(entries, text)]
        assert [_row_key(r) for r in model_rows(model)] == expected, text


def test_a_change_of_one_entry_patches_its_rows_only(qtbot, tmp_path: Path) -> None:
    """An entry that moves from far down to the top is one row out and one row in (plus the
    divider that moves with the prompt's limit), never a reset of 400 rows."""
    folder_path = write_folder(tmp_path / "memory", 400)
    folder = PersonaFolder(folder_path, trash=tmp_path / "trash")
    model = PersonaListModel()
    listed = folder.entries()
    model.set_entries(listed)
    events: list[str] = []
    model.modelReset.connect(lambda: events.append("reset"))
    model.rowsInserted.connect(lambda _p, a, b: events.append(f"insert {b - a + 1}"))
    model.rowsRemoved.connect(lambda _p, a, b: events.append(f"remove {b - a + 1}"))
    saved = folder.save(_edited(listed[300]))
    model.set_entries(folder.refresh(written=[saved]))
    assert "reset" not in events
    assert sum(int(e.split()[1]) for e in events) <= 4
    assert model.row_of(saved.name) == 0
    fresh = PersonaFolder(folder_path, trash=tmp_path / "trash").entries()
    assert [_row_key(r) for r in model_rows(model)] == [_row_key(r) for r in build_rows(fresh, "")]


def test_haystacks_made_off_the_thread_are_taken_only_for_the_listing_they_were_made_for(
    qtbot, tmp_path: Path
) -> None:
    """The page shows every entry as soon as they are read; the filter's texts come after, and
    the model takes them only while it shows that very listing, unpatched: haystacks of a
    listing before a save would put the saved entry's text at the wrong row."""
    folder = PersonaFolder(write_folder(tmp_path / "memory", 400), trash=tmp_path / "trash")
    listed = folder.entries()
    hays = persona_rows.haystacks(listed)
    model = PersonaListModel()
    model.set_entries(listed)
    assert not model.offer_haystacks(list(listed), hays)  # (an equal list is another listing)
    assert model.offer_haystacks(listed, hays)
    assert not model.offer_haystacks(listed, hays)  # (it has them already)
    model.set_filter("garden")
    assert [_row_key(r) for r in model_rows(model)] == [
        _row_key(r) for r in build_rows(listed, "garden")
    ]

    again = folder.entries()
    model.set_entries(again)
    saved = folder.save(dataclasses.replace(again[300], body="Now about a garden."))
    model.patch(folder.refresh(written=[saved]), (), (saved,))
    assert not model.offer_haystacks(again, persona_rows.haystacks(again))  # (patched since)
    model.set_filter("now about")
    assert [_row_key(r) for r in model_rows(model)] == [saved.name]


def _edited(entry):
    import dataclasses

    return dataclasses.replace(entry, body="Edited by the person.")


# -- the window -----------------------------------------------------------------------------------


def test_a_save_in_the_window_reads_one_file_and_never_lists_the_folder(
    qtbot, open_window, tmp_path: Path, file_log
) -> None:
    folder_path = write_folder(tmp_path / "memory", 2000)
    window = open_window(["--persona", str(folder_path)])
    view = window.findChild(QAbstractItemView, "personaList")
    qtbot.waitUntil(lambda: view.model().rowCount() > 2000)
    wait_persona_read(window)
    names = list_names(view)
    target = names[700]
    view.setCurrentIndex(view.model().index(700, 0))
    body = window.findChild(QPlainTextEdit, "personaBody")
    qtbot.waitUntil(lambda: window.findChild(QLineEdit, "personaName").text() == target)
    body.setPlainText("Saved from the window.")
    log = file_log(folder_path)
    window.findChild(QPushButton, "personaSave").click()
    assert log.listings == 0
    assert log.entry_files_opened() == {f"{target}.md"}
    FileLog.active = None
    # the list shows the saved entry first, and equals a full listing
    assert list_names(view)[0] == target
    fresh = PersonaFolder(folder_path).entries()
    assert [n for n in list_names(view) if n is not None] == shown_names(fresh)
    assert window.persona_page.status_text().startswith("2,000 entries")


def test_a_big_listing_is_shown_before_its_filter_texts_are_made_on_a_worker(
    qtbot, open_window, tmp_path: Path, monkeypatch
) -> None:
    """The window shows every entry without waiting for the filter's texts (they hold the
    interpreter's lock in proportion to the folder); they are made afterwards, off its
    thread, and the model takes them: the first filter keystroke makes none."""
    import threading

    from memory_desk.ui.persona import folder_reads

    made: list[tuple[str, int, int]] = []
    real = persona_rows.haystacks
    shown_rows: list[int] = []

    def counting(entries):
        made.append((threading.current_thread().name, len(entries), shown_rows[-1]))
        return real(entries)

    monkeypatch.setattr(folder_reads, "haystacks", counting)
    slow_path = []
    monkeypatch.setattr(
        PersonaListModel, "_haystack", lambda self, e: slow_path.append(1) or list_model.haystack(e)
    )
    folder_path = write_folder(tmp_path / "memory", 600)
    window = open_window(["--persona", str(folder_path)])
    view = window.findChild(QAbstractItemView, "personaList")
    view.model().modelReset.connect(lambda: shown_rows.append(view.model().rowCount()))
    view.model().rowsInserted.connect(lambda *_: shown_rows.append(view.model().rowCount()))
    wait_persona_read(window)
    qtbot.waitUntil(lambda: made != [], timeout=5_000)
    name, count, rows_then = made[0]
    assert count == 600 and rows_then > 600  # (made after every entry was shown)
    assert name != threading.main_thread().name
    qtbot.wait(50)  # (the texts reach the model)
    window.findChild(QLineEdit, "personaFilter").setText("garden")
    qtbot.waitUntil(lambda: 0 < view.model().rowCount() < 600, timeout=5_000)
    assert slow_path == []  # (the model made no text of its own)


def test_the_window_stops_every_worker_it_made_when_it_shuts_down(
    qtbot, open_window, tmp_path: Path
) -> None:
    """A worker left running when its pool is destroyed deadlocks the window (the pool's
    destructor waits for it while holding the interpreter's lock, which the worker needs):
    a runner added to a page must be stopped with it."""
    from memory_desk.ui.workers.background import BackgroundCall

    window = open_window(["--persona", str(write_folder(tmp_path / "memory", 600))])
    wait_persona_read(window)
    calls = window.findChildren(BackgroundCall)
    assert len(calls) >= 5  # (the persona page's four, the sidebar's count...)
    window.shutdown()
    assert [c.objectName() or repr(c) for c in calls if not c.stopped] == []


def test_the_list_asks_only_for_the_rows_in_sight(
    qtbot, open_window, tmp_path: Path, monkeypatch
) -> None:
    """Painting, a filter keystroke and a save ask the model about the rows on screen, not
    about each of 2,000 rows."""
    asked: set[int] = set()
    real = PersonaListModel.data

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        asked.add(index.row())
        return real(self, index, role)

    real_row = PersonaListModel.row_at

    def row_at(self, row: int):  # (the list paints its rows from this, not from data())
        asked.add(row)
        return real_row(self, row)

    monkeypatch.setattr(PersonaListModel, "data", data)
    monkeypatch.setattr(PersonaListModel, "row_at", row_at)
    folder_path = write_folder(tmp_path / "memory", 2000)
    window = open_window(["--persona", str(folder_path)])
    page = window.persona_page
    view = window.findChild(QAbstractItemView, "personaList")
    qtbot.waitUntil(lambda: view.model().rowCount() > 2000)
    qtbot.wait(50)
    in_sight = view.viewport().height() // view.verticalHeader().defaultSectionSize() + 2
    asked.clear()
    with qtbot.waitSignal(page.filter_applied):
        window.findChild(QLineEdit, "personaFilter").setText("e")
    qtbot.wait(50)
    assert view.model().rowCount() > 1000
    assert 0 < len(asked) <= in_sight + 4, (len(asked), in_sight)


def test_a_live_reload_reads_only_the_file_the_agent_changed(
    qtbot, open_window, tmp_path: Path, monkeypatch, file_log
) -> None:
    monkeypatch.setattr("memory_desk.core.persona.reading.RACY_NS", 0)
    folder_path = write_folder(tmp_path / "memory", 2000)
    window = open_window(["--persona", str(folder_path)])
    view = window.findChild(QAbstractItemView, "personaList")
    qtbot.waitUntil(lambda: view.model().rowCount() > 2000)
    wait_persona_read(window)
    log = file_log(folder_path)
    data = agent_file("entry-01234", "Rewritten by the agent", "2027-01-01T00:00:00.000Z", "x.")
    (folder_path / "entry-01234.md").write_bytes(data)
    window.persona_page.reload()  # what the window does when the watcher reports the file
    wait_persona_read(window)  # (the folder's files are looked at on a worker)
    assert log.entry_files_opened() == {"entry-01234.md"}
    FileLog.active = None
    assert list_names(view)[0] == "entry-01234"
