"""A full disk: the write fails with a message a person understands, and nothing is lost.

A real full filesystem: a small tmpfs mounted for the test (this needs root, which CI has;
elsewhere the tests skip and say why), filled up with a filler file before the write.
"""

from __future__ import annotations

import dataclasses
import errno
import os
from pathlib import Path

import pytest
from PySide6.QtWidgets import QAbstractButton, QPlainTextEdit

from memory_desk.app import create_main_window
from memory_desk.core import StoreError, alisio
from memory_desk.core.observations import ObservationStore
from memory_desk.core.persona import PersonaFolder

ENTRY = (
    "---\nname: short-answers\ndescription: Keep answers short\ntype: feedback\n"
    "updated: 2026-11-01T10:00:00.000Z\n---\n\nAnswer in ten lines or fewer.\n"
)


def fill(disk: Path) -> None:
    """Write a filler file until the filesystem says it is full."""
    fd = os.open(disk / "filler", os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        while True:
            os.write(fd, b"\0" * 4096)
    except OSError as exc:
        assert exc.errno == errno.ENOSPC
    finally:
        os.close(fd)


def listing(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file() and p.name != "filler"}


def test_persona_save_on_a_full_disk_keeps_the_file(small_disk: Path) -> None:
    folder_path = small_disk / "memory"
    folder_path.mkdir()
    (folder_path / "short-answers.md").write_text(ENTRY, encoding="utf-8")
    folder = PersonaFolder(folder_path)
    entry = folder.read("short-answers")
    before = listing(folder_path)
    fill(small_disk)

    edited = dataclasses.replace(entry, body="A much longer body. " * 2000)
    with pytest.raises(StoreError) as raised:
        folder.save(edited)
    assert "space" in str(raised.value).lower() or "full" in str(raised.value).lower()
    assert listing(folder_path) == before  # the entry intact, no temporary file left behind


def test_persona_page_reports_a_full_disk_and_keeps_the_text(qtbot, small_disk: Path) -> None:
    folder_path = small_disk / "memory"
    folder_path.mkdir()
    (folder_path / "short-answers.md").write_text(ENTRY, encoding="utf-8")
    window = create_main_window(["--persona", str(folder_path)])
    qtbot.addWidget(window)
    window.show()
    body = window.findChild(QPlainTextEdit, "personaBody")
    qtbot.waitUntil(lambda: "ten lines" in body.toPlainText())
    fill(small_disk)

    typed = "A much longer body. " * 2000
    body.setPlainText(typed)
    window.findChild(QAbstractButton, "personaSave").click()
    qtbot.waitUntil(lambda: window.message_bar.isVisible() and window.message_bar.kind == "error")
    assert "space" in window.message_bar.text().lower() or "full" in window.message_bar.text()
    assert body.toPlainText() == typed  # nothing the person typed is lost
    assert (folder_path / "short-answers.md").read_text(encoding="utf-8") == ENTRY
    window.findChild(QAbstractButton, "personaRevert").click()  # or closing would ask to save
    window.shutdown()


def test_database_edit_on_a_full_disk_raises_and_leaves_the_row(small_disk: Path) -> None:
    db = small_disk / "memory.sqlite"
    alisio.create_database(db)
    conn = alisio.connect_like_plugin(db)
    saved = alisio.save_observation(
        conn, title="Cache race", content="**What**: short", type="bugfix", project="p-1"
    )
    conn.close()
    store = ObservationStore(db)
    before = store.get(saved.id)
    fill(small_disk)

    with pytest.raises(StoreError) as raised:
        store.edit(saved.id, content="**What**: " + "much longer text " * 20_000)
    assert "full" in str(raised.value)
    assert store.get(saved.id) == before
    os.remove(small_disk / "filler")
    check = alisio.connect_like_plugin(db)
    assert check.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    check.execute("INSERT INTO observations_fts(observations_fts) VALUES('integrity-check')")
    check.close()
    store.close()
