"""A huge persona entry opens without freezing the window, and shows its start read-only.

The folder is real: entries written byte for byte as agent-kit writes them, one of them 30 MB.
A heartbeat ``QTimer`` (every 10 ms) records the longest gap of the event loop: that gap is the
freeze the person would feel. Everything is driven by object names, as a person would.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QTextBrowser,
    QWidget,
)

from heartbeat import Heartbeat
from memory_desk.app import create_main_window
from memory_desk.core.persona import LARGE_ENTRY_BYTES, PersonaFolder
from window_helpers import make_persona_folder

pytest_plugins = ["window_fixture"]

ATTEMPTS = 3
MAX_STALL_S = 0.100
LINE = "- Prefers *short* answers; see [the notes](notes.md) and `code` here.\n"


def agent_entry(name: str, description: str, updated: str, body: str) -> bytes:
    """An entry exactly as agent-kit writes it."""
    return (
        f"---\nname: {name}\ndescription: {description}\ntype: user\nupdated: {updated}\n"
        f"---\n\n{body}\n"
    ).encode()


def write_large(folder: Path, name: str, size: int, updated: str) -> bytes:
    """An entry of about ``size`` bytes: many short markdown lines, numbered to be checked."""
    count = size // (len(LINE) + 8)
    body = "".join(f"{n:07d}{LINE}" for n in range(count)).rstrip("\n")
    data = agent_entry(name, "Everything about the garden", updated, body)
    (folder / f"{name}.md").write_bytes(data)
    return data


@pytest.fixture
def big_folder(tmp_path: Path) -> Path:
    folder = make_persona_folder(tmp_path / "garden" / "memory", ("likes-tea", "name-carmen"))
    write_large(folder, "garden-notes", 30 * 1024 * 1024, "2020-01-01T00:00:00.000Z")
    return folder


def child(widget: QWidget, kind, name: str):
    found = widget.findChild(kind, name)
    assert found is not None, name
    return found


def list_names(window) -> list[str | None]:
    view = child(window, QAbstractItemView, "personaList")
    model = view.model()
    return [model.index(r, 0).data(Qt.ItemDataRole.UserRole) for r in range(model.rowCount())]


def select(window, name: str) -> None:
    view = child(window, QAbstractItemView, "personaList")
    view.setCurrentIndex(view.model().index(list_names(window).index(name), 0))


def close_discarding(window, monkeypatch) -> None:
    with monkeypatch.context() as patch:
        patch.setattr(QMessageBox, "question", lambda *_a, **_k: QMessageBox.StandardButton.Discard)
        window.close()


def test_opening_a_folder_with_a_30_mb_entry_never_stalls(
    qtbot, open_window, big_folder: Path, tmp_path: Path, monkeypatch
) -> None:
    """Best of up to three runs in fresh windows: today's code froze for seconds every time
    (38.6 s measured), while a loaded CI machine can add one stray gap to any single run."""
    small = make_persona_folder(tmp_path / "other" / "memory", ("works-at-night",))
    monkeypatch.setattr(
        "PySide6.QtWidgets.QFileDialog.getExistingDirectory", lambda *_a, **_k: str(big_folder)
    )
    stalls: list[float] = []
    for _attempt in range(ATTEMPTS):
        window = open_window(["--persona", str(small)])
        heartbeat = Heartbeat(window).start()
        qtbot.wait(50)
        window.on_open_folder()  # File ▸ Open folder…, the person picks the big folder
        qtbot.waitUntil(lambda: "garden-notes" in list_names(window))  # noqa: B023
        qtbot.wait(50)
        select(window, "garden-notes")
        body = child(window, QPlainTextEdit, "personaBody")
        qtbot.waitUntil(lambda: body.toPlainText().startswith("0000000- Prefers"))  # noqa: B023
        qtbot.wait(300)  # the preview's delay and anything it starts
        open_anyway = child(window, QPushButton, "personaOpenLargeButton")
        assert open_anyway.isVisible()
        select(window, "likes-tea")
        name = child(window, QLineEdit, "personaName")
        qtbot.waitUntil(lambda: name.text() == "likes-tea")  # noqa: B023
        qtbot.wait(300)
        stalls.append(heartbeat.stop())
        assert not open_anyway.isVisible()
        window.close()
        if stalls[-1] < MAX_STALL_S:
            break
    longest = min(stalls)
    assert longest < MAX_STALL_S, f"the window froze for {[round(x * 1000) for x in stalls]} ms"


def test_a_large_entry_shows_its_start_read_only_with_its_size(
    qtbot, big_folder: Path, monkeypatch
) -> None:
    window = create_main_window(["--persona", str(big_folder)])
    window.show()
    qtbot.waitExposed(window)
    select(window, "garden-notes")
    body = child(window, QPlainTextEdit, "personaBody")
    text = body.toPlainText()
    assert text.startswith("0000000- Prefers")
    assert len(text.encode()) < LARGE_ENTRY_BYTES  # only the start, never 30 MB in the editor
    assert body.isReadOnly()
    assert not child(window, QPushButton, "personaSave").isEnabled()
    # the header is read as the agent reads it: the list shows its description
    assert child(window, QLineEdit, "personaDescription").text() == "Everything about the garden"
    note = child(window, QLabel, "personaLargeNote")
    assert note.isVisible()
    size = (big_folder / "garden-notes.md").stat().st_size
    assert f"{size / (1024 * 1024):.1f} MB" in note.text()
    assert note.textFormat() == Qt.TextFormat.PlainText
    preview = child(window, QTextBrowser, "personaPreview")
    qtbot.waitUntil(lambda: "0000000" in preview.toPlainText())
    assert len(preview.toPlainText()) < LARGE_ENTRY_BYTES
    close_discarding(window, monkeypatch)
    window.deleteLater()


def test_open_anyway_reads_the_whole_entry_off_the_main_thread_and_saves_it_whole(
    qtbot, tmp_path: Path, monkeypatch
) -> None:
    folder = make_persona_folder(tmp_path / "memory", ("likes-tea",))
    data = write_large(folder, "garden-notes", 3 * 1024 * 1024, "2020-01-01T00:00:00.000Z")
    window = create_main_window(["--persona", str(folder)])
    window.show()
    qtbot.waitExposed(window)
    body = child(window, QPlainTextEdit, "personaBody")
    name = child(window, QLineEdit, "personaName")
    stalls: list[float] = []
    try:
        for _attempt in range(ATTEMPTS):  # best of up to three: see the 30 MB test
            select(window, "garden-notes")
            qtbot.waitUntil(lambda: name.text() == "garden-notes")  # noqa: B023
            open_anyway = child(window, QPushButton, "personaOpenLargeButton")
            qtbot.waitUntil(open_anyway.isVisible)
            heartbeat = Heartbeat(window).start()
            open_anyway.click()
            qtbot.waitUntil(lambda: not window.persona_page.is_loading_large(), timeout=20_000)
            stalls.append(heartbeat.stop())
            if stalls[-1] < MAX_STALL_S:
                break
            select(window, "likes-tea")
            qtbot.waitUntil(lambda: name.text() == "likes-tea")  # noqa: B023
    except BaseException:
        close_discarding(window, monkeypatch)
        raise
    if min(stalls) >= MAX_STALL_S:
        close_discarding(window, monkeypatch)
    assert min(stalls) < MAX_STALL_S, f"the window froze for {[round(x * 1000) for x in stalls]} ms"
    whole = PersonaFolder(folder).read("garden-notes")
    assert body.toPlainText() == whole.body
    assert not body.isReadOnly()
    assert not child(window, QLabel, "personaLargeNote").isVisible()
    assert not child(window, QPushButton, "personaSave").isEnabled()  # nothing typed yet
    # an edit at the end is saved, and the rest of the file stays byte for byte
    body.moveCursor(body.textCursor().MoveOperation.End)
    body.insertPlainText("\nOne more line.")
    assert child(window, QPushButton, "personaSave").isEnabled()
    child(window, QPushButton, "personaSave").click()
    saved = (folder / "garden-notes.md").read_bytes()
    old_body = data.split(b"---\n\n", 1)[1]
    new_body = saved.split(b"---\n\n", 1)[1]
    assert new_body == old_body.rstrip(b"\n") + b"\nOne more line.\n"
    close_discarding(window, monkeypatch)
    window.deleteLater()


def test_leaving_a_large_entry_while_it_loads_drops_the_late_answer(
    qtbot, tmp_path: Path, monkeypatch
) -> None:
    folder = make_persona_folder(tmp_path / "memory", ("likes-tea",))
    write_large(folder, "garden-notes", 3 * 1024 * 1024, "2020-01-01T00:00:00.000Z")
    window = create_main_window(["--persona", str(folder)])
    window.show()
    qtbot.waitExposed(window)
    select(window, "garden-notes")
    child(window, QPushButton, "personaOpenLargeButton").click()
    select(window, "likes-tea")  # the person moves on before the whole file arrives
    qtbot.waitUntil(lambda: not window.persona_page.is_loading_large(), timeout=20_000)
    qtbot.wait(100)
    assert child(window, QLineEdit, "personaName").text() == "likes-tea"
    assert child(window, QPlainTextEdit, "personaBody").toPlainText() == (
        "Something worth remembering."
    )
    close_discarding(window, monkeypatch)
    window.deleteLater()
