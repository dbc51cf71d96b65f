"""What the observations page shows, as a person sees it: projects, dates, badges, words, names.

A database the plugin built (its DDL and its ``memory_save``), a persona folder written as the
agent writes it, a real window driven by object names and keys. Colours are read from what
the window painted (a grab of the table) and compared with the theme in effect, in light and
dark; words are checked under a translator that marks every translated string, so a visible
string that never went through Qt's translation shows up unmarked.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
from PySide6.QtCore import QLocale, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QImage
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QTableWidget,
    QWidget,
)

from memory_desk.core import alisio
from memory_desk.ui import dates, theme
from memory_desk.ui.elide import short_id, split_project
from memory_desk.ui.observations.model import BADGE_COLOUR_ROLE, Column
from memory_desk.ui.persona.model import NAME, UPDATED
from memory_desk.ui.widgets.delegates import ProjectDelegate, TypeBadgeDelegate
from memory_desk.ui.widgets.topic import TopicConflictDialog
from ui_strings import OPEN, marked_language, unnamed, untranslated
from window_helpers import agent_forget, agent_save, table

pytest_plugins = ["window_fixture"]  # the open_window fixture

DAY = 86_400_000
HOUR = 3_600_000
AUTH = "auth/token-refresh"
SESSION = "ses_01J9ZK5Q2W3E4R5T6Y7U8I9O0P-8f2a4b1c9d0e-long"  # longer than the pane shows
RECENT_AGO = 3 * DAY + 5 * HOUR  # "3 days ago", far from a day's edge
OLD_AGO = 40 * DAY + 5 * HOUR  # beyond the relative range: the locale's short date


@pytest.fixture
def now() -> int:
    return alisio.now_ms()


@pytest.fixture
def project(tmp_path: Path) -> str:
    """A real project id: ``<basename>-<8 hex of sha256(realpath)>``, a long basename."""
    checkout = tmp_path / "fieldnotes-desktop-app"
    checkout.mkdir()
    return alisio.project_id(checkout)


@pytest.fixture
def db(tmp_path: Path, now: int, project: str) -> Path:
    """#1 recent decision in ``project`` with a long session id; #2 an old bugfix; #3 a
    forgotten row and #4 the live row the agent saved after it, on one topic key."""
    path = tmp_path / "agent" / "memory.sqlite"
    path.parent.mkdir()
    alisio.create_database(path)
    saved = [
        agent_save(
            path,
            title="Token refresh race",
            content="**What** refresh once",
            project=project,
            session_id=SESSION,
            now=now - RECENT_AGO,
        ),
        agent_save(
            path,
            title="Old cache bug",
            content="**What** stale cache",
            type="bugfix",
            now=now - OLD_AGO,
        ),
        agent_save(
            path,
            title="Refresh behind a lock",
            content="**What** a lock",
            topic_key=AUTH,
            now=now - 2 * OLD_AGO,
        ),
    ]
    agent_forget(path, saved[2].id, at=now - OLD_AGO - DAY)
    saved.append(
        agent_save(
            path,
            title="Refresh per tab",
            content="**What** per tab",
            topic_key=AUTH,
            now=now - OLD_AGO - HOUR,
        )
    )
    assert [s.id for s in saved] == [1, 2, 3, 4]
    return path


def iso(ms: int) -> str:
    """``updated:`` as agent-kit writes it: UTC, milliseconds, ``Z``."""
    moment = datetime.fromtimestamp(ms / 1000, UTC)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


@pytest.fixture
def persona(tmp_path: Path, now: int) -> Path:
    """A persona folder with one entry updated at the same moment as observation #1."""
    folder = tmp_path / ".miyagi" / "memory"
    folder.mkdir(parents=True)
    (folder / "likes-tea.md").write_bytes(
        "---\nname: likes-tea\ndescription: About tea\ntype: user\n"
        f"updated: {iso(now - RECENT_AGO)}\n---\n\nGreen, no sugar.\n".encode()
    )
    return folder


@pytest.fixture
def window(open_window, qtbot, db: Path):
    window = open_window(["--db", str(db)])
    qtbot.waitUntil(lambda: table(window).model().rowCount() == 3)
    return window


def page(window):
    return window.observations_page


def index_of(window, oid: int, column: Column):
    model = table(window).model()
    return model.index(model.row_of(oid), column)


def grab_cell(window, oid: int, column: Column) -> tuple[QImage, object]:
    """The table as painted, and the cell's rectangle in it (scrolled into view first)."""
    view = table(window)
    index = index_of(window, oid, column)
    view.scrollTo(index)
    view.viewport().repaint()
    return view.viewport().grab().toImage(), view.visualRect(index)


def exact_pixels(image: QImage, rect, colour: str | QColor) -> list[int]:
    """The x of every pixel in ``rect`` painted exactly ``colour``."""
    wanted = QColor(colour).rgb()
    area = rect.intersected(image.rect())
    return [
        x
        for x in range(area.left(), area.right() + 1)
        for y in range(area.top(), area.bottom() + 1)
        if image.pixel(x, y) == wanted
    ]


def closest(image: QImage, rect, colour: str) -> int:
    """How near (sum of channel differences) the closest pixel in ``rect`` comes to ``colour``."""
    wanted = QColor(colour)
    area = rect.intersected(image.rect())
    pixels = [
        QColor(image.pixel(x, y))
        for x in range(area.left(), area.right() + 1)
        for y in range(area.top(), area.bottom() + 1)
    ]
    return min(
        abs(p.red() - wanted.red())
        + abs(p.green() - wanted.green())
        + abs(p.blue() - wanted.blue())
        for p in pixels
    )


# -- the project column ----------------------------------------------------------------------


def test_project_cells_draw_the_name_bold_and_the_hash_subdued_and_drop_the_hash_first(
    qtbot, window, project: str
) -> None:
    view = table(window)
    delegate = view.itemDelegateForColumn(Column.PROJECT)
    assert isinstance(delegate, ProjectDelegate)
    name, digest = split_project(project)
    assert name == "fieldnotes-desktop-app" and len(digest) == 8
    index = index_of(window, 1, Column.PROJECT)
    view.clearSelection()  # a selected row is drawn in the selection's own colour

    view.horizontalHeader().resizeSection(Column.PROJECT, 400)
    cell = delegate.cell_at(index)
    assert (cell.name, cell.tail) == (name, f"-{digest}")
    assert cell.tail_colour == QColor(theme.colors().subdued) != cell.name_colour

    image, rect = grab_cell(window, 1, Column.PROJECT)
    hash_pixels = exact_pixels(image, rect, theme.colors().subdued)
    name_pixels = exact_pixels(image, rect, cell.name_colour)
    assert hash_pixels and name_pixels
    assert min(hash_pixels) > max(name_pixels)  # the hash, subdued, after the name
    plain = QFontMetrics(view.font())
    bold_font = QFont(view.font())
    bold_font.setBold(True)
    bold = QFontMetrics(bold_font)
    assert bold.horizontalAdvance(name) > plain.horizontalAdvance(name)
    drawn = max(name_pixels) - min(name_pixels)
    assert drawn > (plain.horizontalAdvance(name) + bold.horizontalAdvance(name)) / 2 - 2  # bold

    narrow = 120
    view.horizontalHeader().resizeSection(Column.PROJECT, narrow)
    cell = delegate.cell_at(index)
    assert cell.tail == ""  # the name is what a person reads: the hash goes first
    assert cell.name.endswith("…") and name.startswith(cell.name[:-1])
    assert len(cell.name) > 6  # most of the name, not "fie…a786d7ce"
    assert bold.horizontalAdvance(cell.name) <= narrow

    assert index.data(Qt.ItemDataRole.ToolTipRole) == project  # the whole id on hover
    assert index.data() == project  # what a screen reader reads and a copy takes


def test_a_very_narrow_project_column_shows_the_start_of_the_name(qtbot, window, project) -> None:
    view = table(window)
    view.horizontalHeader().resizeSection(Column.PROJECT, 48)
    cell = view.itemDelegateForColumn(Column.PROJECT).cell_at(index_of(window, 1, Column.PROJECT))
    assert cell.tail == "" and cell.name.endswith("…")
    assert project.startswith(cell.name[:-1])


# -- one date style --------------------------------------------------------------------------


def test_dates_read_the_same_on_both_pages_relative_then_the_locale_date_exact_on_hover(
    qtbot, open_window, db: Path, persona: Path, now: int
) -> None:
    window = open_window(["--db", str(db), "--persona", str(persona)])
    qtbot.waitUntil(lambda: table(window).model().rowCount() == 3)
    recent = index_of(window, 1, Column.UPDATED)
    old = index_of(window, 2, Column.UPDATED)

    assert recent.data() == dates.relative(now - RECENT_AGO, alisio.now_ms())
    assert recent.data() == "3 days ago"  # English: no translator installed
    moment = QLocale().toString(
        datetime.fromtimestamp((now - OLD_AGO) / 1000).date(), QLocale.FormatType.ShortFormat
    )
    assert old.data() == moment == dates.short_date(now - OLD_AGO)
    assert recent.data(Qt.ItemDataRole.ToolTipRole) == dates.exact(now - RECENT_AGO)
    assert old.data(Qt.ItemDataRole.ToolTipRole) == dates.exact(now - OLD_AGO)

    window.show_page("persona")
    persona_list = window.findChild(QWidget, "personaList")
    qtbot.waitUntil(lambda: persona_list.model().rowCount() > 0)
    model = persona_list.model()
    row = next(r for r in range(model.rowCount()) if model.index(r, NAME).data() == "likes-tea")
    assert model.index(row, UPDATED).data() == recent.data()  # the same moment, the same words
    tip = model.index(row, UPDATED).data(Qt.ItemDataRole.ToolTipRole)
    assert tip.startswith(recent.data(Qt.ItemDataRole.ToolTipRole))


def test_the_detail_gives_exact_dates_and_cuts_a_long_session_id_in_the_middle(
    qtbot, window, now: int, project: str
) -> None:
    table(window).setCurrentIndex(index_of(window, 1, Column.TITLE))
    detail = page(window).detail
    qtbot.waitUntil(lambda: detail.shown_id == 1)
    meta = detail.meta_label
    assert dates.detailed(now - RECENT_AGO, alisio.now_ms()) in meta.text()
    assert short_id(SESSION, 16) in meta.text() and SESSION not in meta.text()
    assert SESSION in meta.toolTip() and project in meta.toolTip()


# -- badges and colours from the theme ---------------------------------------------------------


@pytest.mark.parametrize("choice", ["light", "dark"])
def test_badges_take_the_themes_colours_and_keep_their_names(qtbot, window, choice: str) -> None:
    theme.apply_theme(choice)
    colours = theme.colors()
    assert colours.dark == (choice == "dark")
    view = table(window)
    assert isinstance(view.itemDelegateForColumn(Column.TYPE), TypeBadgeDelegate)
    view.clearSelection()
    for oid, type_name in ((1, "decision"), (2, "bugfix")):
        fill, ink = colours.badge(type_name)
        assert theme.contrast(fill, ink) >= 4.5
        index = index_of(window, oid, Column.TYPE)
        assert index.data() == type_name  # the badge carries its name: colour is not alone
        assert index.data(BADGE_COLOUR_ROLE) == QColor(fill)
        image, rect = grab_cell(window, oid, Column.TYPE)
        inside = (rect.left() + 4 + 3, rect.center().y())  # in the pill's padding
        assert QColor(image.pixel(*inside)).name() == fill
        assert closest(image, rect, ink) < 90  # its name, written in the pair's text colour

    table(window).setCurrentIndex(index_of(window, 1, Column.TITLE))
    qtbot.waitUntil(lambda: page(window).detail.shown_id == 1)
    meta = page(window).detail.meta_label.text()
    assert colours.badge("decision")[0] in meta and colours.subdued in meta


def test_the_detail_recolours_when_the_theme_changes(qtbot, window) -> None:
    table(window).setCurrentIndex(index_of(window, 1, Column.TITLE))
    meta = page(window).detail.meta_label
    qtbot.waitUntil(lambda: page(window).detail.shown_id == 1)
    theme.apply_theme("light")
    assert theme.LIGHT.badge("decision")[0] in meta.text()
    theme.apply_theme("dark")
    assert theme.DARK.badge("decision")[0] in meta.text()
    assert theme.LIGHT.badge("decision")[0] not in meta.text()


def test_no_widget_of_the_detail_or_dialogs_carries_its_own_colours(qtbot, window) -> None:
    view = table(window)
    view.setCurrentIndex(index_of(window, 1, Column.TITLE))
    qtbot.waitUntil(lambda: page(window).detail.shown_id == 1)
    window.activateWindow()
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_F2)
    title = window.findChild(QLineEdit, "editTitle")
    qtbot.waitUntil(title.isVisible)
    title.setText("x" * 210)  # over the cap: the counter and the note speak up
    detail = page(window).detail
    styled = [w.objectName() for w in detail.findChildren(QWidget) if w.styleSheet()]
    assert styled == []
    assert window.findChild(QLabel, "titleCounter").property("textTone") == "error"
    note = window.findChild(QLabel, "storedNote")
    assert note.isVisible() and note.property("textTone") == "warning"
    assert "will be cut to 200 characters" in note.text()  # words, not colour alone
    title.setText("short")
    assert window.findChild(QLabel, "titleCounter").property("textTone") is None


# -- every word translated, every control named -----------------------------------------------


def meta_names(text: str) -> list[str]:
    """The first cell of each row of the detail's facts table."""
    return re.findall(r"<tr><td[^>]*>(.*?)</td>", text)


def test_the_detail_pane_speaks_through_the_translator_and_names_its_controls(
    qtbot, open_window, db: Path
) -> None:
    with marked_language():
        window = open_window(["--db", str(db)])
        qtbot.waitUntil(lambda: table(window).model().rowCount() == 3)
        detail = page(window).detail
        search = window.findChild(QLineEdit, "observationsSearch")
        search.setText("nothing-matches-this")
        qtbot.waitUntil(lambda: detail.shown_id is None and not page(window).is_busy())
        placeholder = detail.findChild(QLabel, "observationPlaceholder")
        assert placeholder.isVisibleTo(detail)
        assert untranslated(detail) == [] and unnamed(detail) == []
        search.clear()
        qtbot.waitUntil(lambda: table(window).model().rowCount() == 3)

        table(window).setCurrentIndex(index_of(window, 1, Column.TITLE))
        qtbot.waitUntil(lambda: detail.shown_id == 1)
        names = meta_names(detail.meta_label.text())
        assert len(names) >= 14 and all(name.startswith(OPEN) for name in names), names
        assert untranslated(detail) == [] and unnamed(detail) == []

        table(window).setFocus()
        qtbot.keyClick(table(window), Qt.Key.Key_F2)  # the edit form, by keyboard
        title = window.findChild(QLineEdit, "editTitle")
        qtbot.waitUntil(title.isVisible)
        title.setText("  " + "x" * 210)  # the stored-text note and counters show
        assert window.findChild(QLabel, "storedNote").isVisible()
        window.findChild(QLineEdit, "editTopicKey").setText("Not A Key")  # "stored as ..."
        assert window.findChild(QLabel, "editTopicKeyStored").isVisible()
        window.findChild(QPlainTextEdit, "editContent").setPlainText("  ")
        qtbot.mouseClick(window.findChild(QPushButton, "saveEditButton"), Qt.MouseButton.LeftButton)
        assert window.findChild(QLabel, "editError").isVisible()  # refused, in words
        assert untranslated(detail) == [] and unnamed(detail) == []
        qtbot.keyClick(title, Qt.Key.Key_Escape)
        qtbot.waitUntil(lambda: not detail.is_editing)


def test_the_agent_search_dialog_speaks_through_the_translator(
    qtbot, open_window, db: Path
) -> None:
    with marked_language():
        window = open_window(["--db", str(db)])
        qtbot.waitUntil(lambda: table(window).model().rowCount() == 3)
        view = table(window)
        window.activateWindow()
        view.setFocus()
        qtbot.waitUntil(view.hasFocus)
        shift_ctrl = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
        qtbot.keyClick(view, Qt.Key.Key_F, shift_ctrl)
        qtbot.waitUntil(lambda: window.findChild(QDialog, "agentSearchDialog") is not None)
        dialog = window.findChild(QDialog, "agentSearchDialog")
        qtbot.waitUntil(lambda: dialog.isVisible() and not dialog.is_busy())

        dialog.findChild(QLineEdit, "agentSearchText").setText("an refresh")
        qtbot.waitUntil(lambda: not dialog.is_busy())
        results = dialog.findChild(QTableWidget, "agentSearchResults")
        assert results.rowCount() >= 1  # rows shown, their badges and projects painted
        results.viewport().grab()
        note = dialog.findChild(QLabel, "agentSearchNote").text()
        assert note.startswith(OPEN) and "“an”" in note
        assert untranslated(dialog) == [] and unnamed(dialog) == []
        dialog.close()


def test_the_topic_question_speaks_through_the_translator(
    qtbot, open_window, db: Path, monkeypatch
) -> None:
    seen: list[tuple[list[str], list[str], str]] = []

    def answer(dialog: TopicConflictDialog) -> int:
        text = dialog.findChild(QLabel, "topicConflictText").text()
        seen.append((untranslated(dialog), unnamed(dialog), text))
        dialog.findChild(QPushButton, "topicCancelButton").click()
        return dialog.result()

    monkeypatch.setattr(TopicConflictDialog, "exec", answer)
    with marked_language():
        window = open_window(["--db", str(db)])
        view = table(window)
        qtbot.waitUntil(lambda: view.model().rowCount() == 3)
        window.findChild(QCheckBox, "showForgottenFilter").setChecked(True)
        qtbot.waitUntil(lambda: view.model().rowCount() == 4 and not page(window).is_busy())
        view.setCurrentIndex(index_of(window, 3, Column.TITLE))
        view.setFocus()
        qtbot.keyClick(view, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier)  # restore
        qtbot.waitUntil(lambda: bool(seen))

    missing, nameless, text = seen[0]
    assert missing == [] and nameless == []
    assert "Refresh per tab" in text and AUTH in text  # the rows and the key, as data


def test_a_narrow_table_steps_columns_aside_instead_of_scrolling_sideways(qtbot, window) -> None:
    """At 1024×640 (here narrower still: the offscreen screen) every shown column fits beside
    the title; widened again, the columns come back."""
    from memory_desk.ui.observations.columns import MIN_TITLE_WIDTH, NARROW_DROPS

    view = table(window)
    header = view.horizontalHeader()
    window.resize(1024, 640)
    qtbot.waitUntil(lambda: view.horizontalScrollBar().maximum() == 0)
    assert header.sectionSize(Column.TITLE) >= MIN_TITLE_WIDTH
    assert any(header.isSectionHidden(c) for c in NARROW_DROPS)
    assert not header.isSectionHidden(Column.TYPE)  # the columns that matter most stay
    assert not header.isSectionHidden(Column.PROJECT)
    view.resize(1900, view.height())  # (the screen caps the window: widen the table itself)
    qtbot.waitUntil(lambda: not any(header.isSectionHidden(c) for c in NARROW_DROPS))
    assert view.horizontalScrollBar().maximum() == 0
