"""The database file deleted, moved or replaced while Memory Desk has it open.

The store keeps connections on the file it opened; after a ``mv``, an ``rm`` or a rename-over
by another program those connections still reach the old file, which nobody reads any more.
Every write confirms, holding the write lock, that the path still holds the open file (device
and inode); otherwise it is refused with StoreReplaced and nothing is written to either file.
The window (opened by ``--db`` or found by itself) says what happened and switches to the file
now at the path, or says that there is none.

Real files built by the plugin's DDL and ``memory_save``; real ``mv``/``rm``/``os.replace``.
"""

from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path

import pytest
from PySide6.QtWidgets import QToolButton

from memory_desk.core import StoreError
from memory_desk.core.observations import ObservationStore, StoreReplaced
from window_helpers import make_database, source_rows, stored_row, table

pytest_plugins = ["window_fixture"]  # the open_window fixture


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return make_database(tmp_path / "agent" / "memory.sqlite", ("First note", "Second note"))


@pytest.fixture
def other(tmp_path: Path) -> Path:
    """Another plugin-built database, to be moved over ``db``."""
    return make_database(
        tmp_path / "elsewhere" / "memory.sqlite", ("Other one", "Other two", "Other three")
    )


def file_bytes(path: Path) -> bytes:
    return path.read_bytes()


def replace_over(source: Path, target: Path) -> None:
    """What another program does to swap a database in: a rename over the path."""
    os.replace(source, target)


# ---------------------------------------------------------------------- the store


def test_a_write_after_mv_is_refused_and_the_moved_file_is_untouched(
    db: Path, tmp_path: Path
) -> None:
    with ObservationStore(db) as store:
        assert store.search()  # the store has read the file: its connections hold it
        moved = tmp_path / "moved.sqlite"
        shutil.move(db, moved)
        before = file_bytes(moved)
        with pytest.raises(StoreReplaced, match="no longer there") as refused:
            store.pin([1])
        assert "nothing was written" in str(refused.value)
        assert store.replaced() is not None
    assert file_bytes(moved) == before
    assert stored_row(moved, 1)["pinned"] == 0


def test_a_write_after_rm_is_refused(db: Path, tmp_path: Path) -> None:
    with ObservationStore(db) as store:
        keep = tmp_path / "still-open.sqlite"
        os.link(db, keep)  # the deleted file's inode, seen under another name
        db.unlink()
        before = file_bytes(keep)
        with pytest.raises(StoreReplaced, match="deleted, or moved elsewhere"):
            store.forget([1])
        with pytest.raises(StoreReplaced):
            store.edit(1, title="Changed")
    assert file_bytes(keep) == before
    assert not db.exists()  # nothing was created at the path either


def test_a_write_after_a_rename_over_is_refused_and_neither_file_changes(
    db: Path, other: Path, tmp_path: Path
) -> None:
    with ObservationStore(db) as store:
        assert store.totals().live == 2
        old = tmp_path / "old-inode.sqlite"
        os.link(db, old)  # the replaced file stays observable
        replace_over(other, db)
        old_bytes, new_bytes = file_bytes(old), file_bytes(db)
        for write in (
            lambda: store.pin([1]),
            lambda: store.forget([2]),
            lambda: store.edit(1, content="mine"),
            lambda: store.delete([1]),
        ):
            with pytest.raises(StoreReplaced, match="replaced by another file"):
                write()
    assert file_bytes(old) == old_bytes
    assert file_bytes(db) == new_bytes
    assert stored_row(db, 1)["title"] == "Other one"


def test_a_new_connection_never_opens_the_file_that_replaced_it(db: Path, other: Path) -> None:
    """A search on a thread that has no connection yet would otherwise read the new file
    through a store that still writes the old one."""
    with ObservationStore(db) as store:
        store.search()
        replace_over(other, db)
        errors: list[BaseException] = []

        def search() -> None:
            try:
                store.search()
            except BaseException as exc:  # noqa: BLE001 (the test reports what was raised)
                errors.append(exc)

        worker = threading.Thread(target=search)
        worker.start()
        worker.join()
    assert len(errors) == 1 and isinstance(errors[0], StoreReplaced)


def test_the_store_records_the_file_it_opened(db: Path) -> None:
    with ObservationStore(db) as store:
        st = db.stat()
        assert store.identity == (st.st_dev, st.st_ino)
        assert store.replaced() is None
        store.pin([1])  # an untouched path writes as before
    assert stored_row(db, 1)["pinned"] == 1


# ---------------------------------------------------------------------- the window


def wait_rows(qtbot, window, count: int) -> None:
    qtbot.waitUntil(lambda: table(window).model().rowCount() == count, timeout=5000)


def select_first(qtbot, window) -> None:
    """Select the first row once the window has settled: its counts and the sidebar's are
    read on threads of their own after the rows, and a thread that opens its connection
    while the test replaces the file rightly says so, before the write under test could."""
    page = window.observations_page
    qtbot.waitUntil(lambda: not page.is_busy() and not window.sidebar.is_counting())
    table(window).selectRow(0)
    qtbot.waitUntil(lambda: page.pin_action.isEnabled())


def test_window_refuses_a_pin_after_rename_over_then_shows_the_new_file(
    qtbot, open_window, db: Path, other: Path, tmp_path: Path
) -> None:
    window = open_window(["--db", str(db)])
    wait_rows(qtbot, window, 2)
    window.set_live(False)  # no live check yet: the write itself must notice
    select_first(qtbot, window)
    old = tmp_path / "old-inode.sqlite"
    os.link(db, old)
    replace_over(other, db)
    old_bytes, new_bytes = file_bytes(old), file_bytes(db)

    window.findChild(QToolButton, "pinButton").click()
    qtbot.waitUntil(lambda: window.message_bar.kind == "error", timeout=5000)
    assert "replaced by another file" in window.message_bar.text()
    assert file_bytes(old) == old_bytes and file_bytes(db) == new_bytes

    window.set_live(True)  # the live check sees it and switches
    wait_rows(qtbot, window, 3)
    assert "now shows the file that is there now" in window.message_bar.text()
    assert window.observations_page.store.identity == (db.stat().st_dev, db.stat().st_ino)
    assert file_bytes(old) == old_bytes


def test_window_says_there_is_none_after_rm_then_shows_it_when_it_returns(
    qtbot, open_window, db: Path
) -> None:
    window = open_window(["--db", str(db)])
    wait_rows(qtbot, window, 2)
    # Removed once shown, not while the opening's index check reads it (that check says
    # "changed while Memory Desk was opening it", a case of its own).
    qtbot.waitUntil(lambda: not window.observations_page.is_checking_index(), timeout=5000)
    for suffix in ("", "-wal", "-shm"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)
    banner = window.observations_page.index_banner
    qtbot.waitUntil(banner.isVisible, timeout=5000)
    assert "no longer there" in banner.text()
    assert "no longer there" in window.message_bar.text()
    assert window.observations_page.store is None
    assert table(window).model().rowCount() == 0
    assert source_rows(window) == [("Alisio observations", "agent/memory.sqlite", "gone")]

    make_database(db, ("Back again",))  # a database appears at the path: it is shown
    wait_rows(qtbot, window, 1)
    assert window.observations_page.store is not None


def test_window_after_mv_refuses_through_the_page_and_leaves_the_moved_file(
    qtbot, open_window, db: Path, tmp_path: Path
) -> None:
    window = open_window(["--db", str(db)])
    wait_rows(qtbot, window, 2)
    window.set_live(False)
    select_first(qtbot, window)
    moved = tmp_path / "moved.sqlite"
    shutil.move(db, moved)
    before = file_bytes(moved)
    window.findChild(QToolButton, "forgetButton").click()
    qtbot.waitUntil(lambda: window.message_bar.kind == "error", timeout=5000)
    assert "no longer there" in window.message_bar.text()
    assert file_bytes(moved) == before


def test_a_found_database_replaced_is_switched_the_same_way(
    qtbot, open_window, private_home: Path, other: Path
) -> None:
    found = make_database(private_home / ".local/state/alisio/memory.sqlite", ("Found one",))
    window = open_window([])
    wait_rows(qtbot, window, 1)
    replace_over(other, found)
    wait_rows(qtbot, window, 3)
    assert "replaced by another file" in window.message_bar.text()
    assert window.observations_page.store.search()[0].title.startswith("Other")


def test_a_store_error_of_the_old_file_is_a_store_error(db: Path, other: Path) -> None:
    """StoreReplaced is a StoreError: every caller that shows StoreErrors shows it."""
    assert issubclass(StoreReplaced, StoreError)
