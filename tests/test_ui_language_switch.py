"""View ▸ Language switches at once: the window is made again in the chosen language, showing
the same stores, page and selection, and nothing is left in the other language; an unsaved
edit is asked about first."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QApplication,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QTabBar,
    QWidget,
)

from memory_desk.core.kinds import SourceKind
from memory_desk.ui import i18n
from memory_desk.ui.settings import app_settings
from window_helpers import (
    make_database,
    make_persona_folder,
    source_rows,
    table,
    wait_persona_read,
    wait_until,
)

pytest_plugins = ["window_fixture"]

CATALOGUE = Path(__file__).parents[1] / "resources" / "translations" / "memory_desk_es.ts"


def differing() -> tuple[set[str], set[str]]:
    """(English, Spanish): the texts of the catalogue that differ between the languages."""
    english, spanish = set(), set()
    for message in ET.parse(CATALOGUE).getroot().iter("message"):
        source, translation = message.findtext("source"), message.findtext("translation")
        if source and translation and source != translation and "{" not in source:
            english.add(source)
            spanish.add(translation)
    return english - spanish, spanish - english


def shown_texts(window: QWidget) -> list[str]:
    """The texts a person reads in the window: labels, buttons, tabs, menus and actions."""
    texts = [w.text() for w in window.findChildren(QLabel) if w.isVisible()]
    texts += [w.text() for w in window.findChildren(QAbstractButton) if w.isVisible()]
    for bar in window.findChildren(QTabBar):
        if bar.isVisible():
            texts += [bar.tabText(i) for i in range(bar.count())]
    texts += [a.text() for a in window.findChildren(QAction) if a.isVisible()]
    texts += [a.toolTip() for a in window.findChildren(QAction) if a.isVisible()]
    return [t for t in texts if t]


def choose(window, name: str):
    """Trigger View ▸ Language ▸ ``name``; the window made again (None: none was)."""
    made = []
    window.replaced.connect(made.append)
    action = window.findChild(QAction, name)
    assert action is not None, name
    action.trigger()
    return made[0] if made else None


@pytest.fixture
def stores(tmp_path: Path) -> tuple[Path, Path]:
    db = make_database(tmp_path / "alisio" / "memory.sqlite", ("First note", "Second note"))
    folder = make_persona_folder(tmp_path / "miyagi" / "memory", ("likes-tea", "name-carmen"))
    return db, folder


def test_spanish_shows_at_once_with_the_same_stores_page_and_row(
    qtbot, open_window, stores
) -> None:
    db, folder = stores
    window = open_window(["--db", str(db), "--persona", str(folder)])
    view = table(window)
    qtbot.waitUntil(lambda: view.model().rowCount() == 2)
    view.selectRow(1)
    chosen = window.observations_page.selected_ids(limit=1)
    sidebar = [row[1] for row in source_rows(window)]

    new = choose(window, "languageSpanishAction")
    assert new is not None and new is not window
    assert i18n.current_language() == "es"
    assert app_settings().value(i18n.LANGUAGE_KEY) == "es"
    assert not window.isVisible() and new.isVisible()
    assert new.current_page_name() == "observations"
    assert [row[1] for row in source_rows(new)] == sidebar
    qtbot.waitUntil(lambda: new.observations_page.selected_ids(limit=1) == chosen)
    english, spanish = differing()
    assert spanish & set(shown_texts(new))
    left = english & set(shown_texts(new))
    assert not left, f"still in English: {sorted(left)}"
    assert new.findChild(QAction, "languageSpanishAction").isChecked()

    back = choose(new, "languageEnglishAction")
    assert back is not None
    assert i18n.current_language() == "en"
    assert english & set(shown_texts(back))
    left = spanish & set(shown_texts(back))
    assert not left, f"still in Spanish: {sorted(left)}"


def test_the_persona_page_and_its_entry_come_back_in_the_new_language(
    qtbot, open_window, stores
) -> None:
    _db, folder = stores
    window = open_window(["--persona", str(folder)])
    window.show_page("persona")
    wait_persona_read(window)
    assert window.persona_page.select_id("name-carmen")
    new = choose(window, "languageSpanishAction")
    assert new.current_page_name() == "persona"
    qtbot.waitUntil(lambda: new.persona_page.current_name() == "name-carmen", timeout=20_000)


def test_an_unsaved_edit_is_asked_about_and_kept_when_the_person_says_cancel(
    qtbot, open_window, stores, monkeypatch
) -> None:
    _db, folder = stores
    window = open_window(["--persona", str(folder)])
    window.show_page("persona")
    wait_persona_read(window)
    window.persona_page.select_id("likes-tea")
    body = window.persona_page.findChild(QPlainTextEdit, "personaBody")
    qtbot.waitUntil(lambda: "tea" in body.toPlainText() or body.toPlainText() != "")
    body.appendPlainText("A line typed by the person.")
    assert window.persona_page.has_unsaved_edits()
    asked: list[str] = []

    def cancel(_parent, _title, text, *_args, **_kwargs):
        asked.append(text)
        return QMessageBox.StandardButton.Cancel

    monkeypatch.setattr(QMessageBox, "question", cancel)
    assert choose(window, "languageSpanishAction") is None
    assert asked  # the person was asked
    assert i18n.current_language() == "en" and window.isVisible()
    assert "A line typed by the person." in body.toPlainText()  # nothing lost
    assert "próxima vez" in window.message_bar.text()
    assert app_settings().value(i18n.LANGUAGE_KEY) == "es"  # (applies at the next start)

    monkeypatch.setattr(QMessageBox, "question", lambda *_a, **_k: QMessageBox.StandardButton.Save)
    new = choose(window, "languageSpanishAction")
    assert new is not None
    wait_until(lambda: i18n.current_language() == "es", what="Spanish")
    text = (folder / "likes-tea.md").read_text(encoding="utf-8")
    assert "A line typed by the person." in text  # saved, as the person chose


def test_the_demo_comes_along_and_its_folder_is_removed_only_by_the_last_window(
    qtbot, open_window
) -> None:
    window = open_window(["--demo"])
    demo = window.demo
    assert demo is not None
    qtbot.waitUntil(lambda: table(window).model().rowCount() > 0, timeout=20_000)
    new = choose(window, "languageSpanishAction")
    assert new.demo is demo and demo.db_path.exists()
    qtbot.waitUntil(lambda: table(new).model().rowCount() > 0, timeout=20_000)
    new.close()
    new.shutdown()
    assert not demo.db_path.exists()


def test_the_same_language_again_remakes_nothing(open_window, stores) -> None:
    db, _folder = stores
    window = open_window(["--db", str(db)])
    assert choose(window, "languageEnglishAction") is None
    assert window.isVisible()
    assert QApplication.instance().quitOnLastWindowClosed()
    assert window.findChild(QAbstractItemView, "observationsTable") is not None


def test_a_second_start_after_a_switch_goes_to_the_new_window(
    qtbot, open_window, stores, tmp_path
) -> None:
    """The single-instance server hands a later start's arguments to the window in front."""
    from memory_desk.app import hand_starts_to
    from memory_desk.ui.single_instance import InstanceServer, hand_over

    db, _folder = stores
    other = make_database(tmp_path / "other" / "memory.sqlite", ("Elsewhere",))
    window = open_window(["--db", str(db)])
    server = InstanceServer(name=f"md-test-{tmp_path.name}")
    assert server.listen()
    hand_starts_to(window, server)
    new = choose(window, "languageSpanishAction")
    assert new is not None
    assert hand_over(["--db", str(other)], name=f"md-test-{tmp_path.name}")
    qtbot.waitUntil(lambda: new.registry.find(SourceKind.DB, other) is not None, timeout=10_000)
    server.close()


def test_an_observation_being_edited_keeps_the_window_and_its_text(qtbot, open_window, stores):
    db, _folder = stores
    window = open_window(["--db", str(db)])
    view = table(window)
    qtbot.waitUntil(lambda: view.model().rowCount() == 2)
    view.selectRow(0)
    window.observations_page.on_edit()
    title = window.findChild(QLineEdit, "editTitle")
    qtbot.waitUntil(title.isVisible)
    title.setText("A title the person is typing")
    assert window.observations_page.has_unsaved_edits()
    assert choose(window, "languageSpanishAction") is None
    assert window.isVisible() and i18n.current_language() == "en"
    assert title.text() == "A title the person is typing"
    assert "vuelve a elegir el idioma" in window.message_bar.text()


def test_the_search_and_its_filters_come_along(qtbot, open_window, stores) -> None:
    db, _folder = stores
    window = open_window(["--db", str(db)])
    view = table(window)
    qtbot.waitUntil(lambda: view.model().rowCount() == 2)
    window.findChild(QLineEdit, "observationsSearch").setText("Second")
    qtbot.waitUntil(lambda: view.model().rowCount() == 1)
    new = choose(window, "languageSpanishAction")
    assert new is not None
    assert new.findChild(QLineEdit, "observationsSearch").text() == "Second"
    qtbot.waitUntil(lambda: table(new).model().rowCount() == 1)
