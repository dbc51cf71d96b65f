"""Light and dark, and the looks of the window's own parts: the message bar floats over the
page, the sidebar's details read well and speak the person's language, the compare dialog
colours its diff and offers the choice itself, the title marks unsaved edits.

A real window on real stores (the plugin's DDL, the agent's file format), driven by object
names; each colour is read from what is in effect (the widget's palette, its pixels) and
compared with the theme's named colours.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QAction, QColor, QPalette
from PySide6.QtWidgets import (
    QLabel,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QToolButton,
    QTreeWidget,
    QWidget,
)

from memory_desk.ui import theme
from memory_desk.ui.settings import app_settings
from memory_desk.ui.sources.sidebar import GONE_ROLE
from memory_desk.ui.widgets.conflict import CompareDialog, ConflictBanner
from memory_desk.ui.widgets.message_bar import MessageBar
from window_helpers import make_database, make_persona_folder, table, write_alisio_config

pytest_plugins = ["window_fixture"]  # the open_window fixture

THEMES = ("light", "dark")
NAMED = {"light": theme.LIGHT, "dark": theme.DARK}


@pytest.fixture
def found_home(private_home: Path) -> Path:
    """Alisio's database with a config of its own, and miyagi's memory folder."""
    make_database(private_home / ".local/state/alisio/memory.sqlite", ("One", "Two", "Three"))
    make_persona_folder(private_home / ".miyagi/memory", ("likes-tea", "name-carmen"))
    write_alisio_config(private_home, {"recallLimit": 12})
    return private_home


@pytest.fixture
def db_window(qtbot, open_window, tmp_path: Path):
    db = make_database(tmp_path / "alisio" / "memory.sqlite", ("First note", "Second note"))
    window = open_window(["--db", str(db)])
    qtbot.waitUntil(lambda: table(window).model().rowCount() == 2)
    return window


def action(window, name: str) -> QAction:
    found = window.findChild(QAction, name)
    assert found is not None, name
    return found


def widget(root: QWidget, kind, name: str):
    found = root.findChild(kind, name)
    assert found is not None, name
    return found


def background(frame: QWidget) -> str:
    """The colour actually painted inside a frame's border, left of its contents."""
    image = frame.grab().toImage()
    return image.pixelColor(3, image.height() // 2).name()


def text_colour(label: QLabel) -> QColor:
    """The colour the label draws its text in (the style sheet's, once polished)."""
    return label.palette().color(label.foregroundRole())


def table_top(window) -> int:
    view = table(window)
    return view.mapToGlobal(QPoint(0, 0)).y()


def show_an_error(window, tmp_path: Path) -> MessageBar:
    """A real error: a file that is not a database, opened by the person."""
    bad = tmp_path / "notes.sqlite"
    bad.write_bytes(b"this is not an SQLite database, just some words" * 100)
    assert not window.open_database(bad)
    bar = window.findChild(MessageBar, "messageBar")
    assert bar.isVisible() and bar.kind == "error"
    return bar


# -- the message bar has its own row ---------------------------------------------------------


@pytest.mark.parametrize("name", THEMES)
def test_a_message_takes_its_own_row_under_the_page_without_moving_the_table(
    qtbot, db_window, tmp_path, name
) -> None:
    window = db_window
    window.set_theme(name)
    before = table_top(window)
    bar = show_an_error(window, tmp_path)
    assert table_top(window) == before
    pages = widget(window, QWidget, "pages")
    pages_top_left = pages.mapToGlobal(QPoint(0, 0))
    bar_top_left = bar.mapToGlobal(QPoint(0, 0))
    pages_bottom = pages_top_left.y() + pages.height()
    assert pages_bottom <= bar_top_left.y()  # under the page: it covers no control
    # the search box stays in sight
    search = widget(window, QWidget, "observationsSearch")
    assert search.mapToGlobal(QPoint(0, search.height())).y() < bar_top_left.y()
    assert pages_top_left.x() <= bar_top_left.x()
    assert bar.geometry().right() <= pages.mapTo(bar.parentWidget(), QPoint(pages.width(), 0)).x()
    # coloured by the theme in effect, as an error
    assert bar.property("tone") == "error"
    assert background(bar) == NAMED[name].tone("error").background

    qtbot.mouseClick(widget(bar, QToolButton, "messageClose"), Qt.MouseButton.LeftButton)
    assert bar.isHidden()
    assert table_top(window) == before


def test_the_bar_follows_the_page_when_the_window_or_splitter_moves(
    qtbot, db_window, tmp_path
) -> None:
    window = db_window
    bar = show_an_error(window, tmp_path)
    pages = widget(window, QWidget, "pages")

    def bar_spans_the_page() -> bool:
        left = pages.mapTo(bar.parentWidget(), QPoint(0, 0)).x()
        return left <= bar.x() and bar.width() >= pages.width() - 20

    assert bar_spans_the_page()
    window.resize(window.width() - 200, window.height())
    qtbot.waitUntil(bar_spans_the_page)
    splitter = widget(window, QSplitter, "mainSplitter")
    splitter.setSizes([400, splitter.width() - 400])
    qtbot.waitUntil(bar_spans_the_page)
    assert bar.mapTo(window, QPoint(0, 0)).x() > 400


def test_a_long_message_wraps_inside_the_bar(qtbot, db_window) -> None:
    window = db_window
    window.message_bar.show_info("A notice that goes on. " * 40)
    text = widget(window.message_bar, QLabel, "messageText")
    qtbot.waitUntil(lambda: text.height() >= text.heightForWidth(text.width()))
    assert window.message_bar.geometry().contains(
        text.geometry().translated(window.message_bar.pos())
    )


# -- View ▸ Theme and View ▸ Language ------------------------------------------------------------


def test_dark_turns_the_whole_window_dark_at_once_and_is_kept(qtbot, db_window, tmp_path) -> None:
    window = db_window
    action(window, "themeDarkAction").trigger()
    assert theme.current_choice() == "dark"
    assert window.palette().color(QPalette.ColorRole.Window).name() == theme.DARK.window
    tree = widget(window, QTreeWidget, "sourcesList")
    assert tree.palette().color(QPalette.ColorRole.Base).name() == theme.DARK.base
    assert background(show_an_error(window, tmp_path)) == theme.DARK.tone("error").background
    assert action(window, "themeDarkAction").isChecked()
    assert app_settings().value(theme.THEME_KEY) == "dark"
    assert theme.choose_theme(None, app_settings()) == "dark"  # what the next start applies

    action(window, "themeLightAction").trigger()
    assert window.palette().color(QPalette.ColorRole.Window).name() == theme.LIGHT.window
    assert background(window.message_bar) == theme.LIGHT.tone("error").background
    assert app_settings().value(theme.THEME_KEY) == "light"


def test_the_theme_option_starts_the_window_dark(open_window) -> None:
    window = open_window(["--theme", "dark"])
    assert window.palette().color(QPalette.ColorRole.Window).name() == theme.DARK.window
    assert action(window, "themeDarkAction").isChecked()
    assert not action(window, "themeSystemAction").isChecked()


# -- the sidebar's details ---------------------------------------------------------------------


def test_details_are_closed_by_default_then_opened_by_keyboard_and_remembered(
    qtbot, open_window, found_home
) -> None:
    window = open_window([])
    toggle = widget(window, QToolButton, "sourceDetailsToggle")
    info = widget(window, QLabel, "sourceInfo")
    details = widget(window, QLabel, "sourceDetails")
    assert not toggle.isChecked() and details.isHidden()
    qtbot.waitUntil(lambda: not window.sidebar.is_counting())  # counts come off the main thread
    assert "3 live · 0 forgotten · 0 pinned" in info.text()
    for technical in ("recallLimit", "Schema", str(found_home), "config.json"):
        assert technical not in info.text()  # no raw keys or paths by default

    toggle.setFocus()
    qtbot.keyClick(toggle, Qt.Key.Key_Space)
    assert toggle.isChecked() and details.isVisible()
    assert "recallLimit: 12" in details.text() and "recallLimit: 12 (default)" not in details.text()
    assert "(default)" in details.text()  # the settings the config leaves alone say so
    assert f"Path: {found_home / '.local/state/alisio/memory.sqlite'}" in details.text()
    assert "Size: " in details.text()

    again = open_window([])
    assert widget(again, QToolButton, "sourceDetailsToggle").isChecked()
    assert widget(again, QLabel, "sourceDetails").isVisible()
    widget(again, QToolButton, "sourceDetailsToggle").click()
    third = open_window([])
    assert not widget(third, QToolButton, "sourceDetailsToggle").isChecked()
    assert widget(third, QLabel, "sourceDetails").isHidden()


@pytest.mark.parametrize("name", THEMES)
def test_details_read_well_in_both_themes(open_window, found_home, name) -> None:
    window = open_window([])
    window.set_theme(name)
    widget(window, QToolButton, "sourceDetailsToggle").click()
    sidebar_background = window.sidebar.palette().color(QPalette.ColorRole.Window)
    for label_name in ("sourceDetails", "sourceInfo"):
        label = widget(window, QLabel, label_name)
        assert label.isVisible()
        assert theme.contrast(text_colour(label), sidebar_background) >= 4.5, label_name
    details = widget(window, QLabel, "sourceDetails")
    assert text_colour(details).name() == NAMED[name].subdued  # subdued, from the theme


def test_rows_stay_readable_after_a_theme_switch(qtbot, open_window, found_home) -> None:
    window = open_window([])
    folder = found_home / ".miyagi/memory"
    for entry in folder.iterdir():
        entry.unlink()
    folder.rmdir()
    window.registry.refresh(recount=False)
    tree = widget(window, QTreeWidget, "sourcesList")
    rows = {
        tree.topLevelItem(g).child(r).text(0): tree.topLevelItem(g).child(r)
        for g in range(tree.topLevelItemCount())
        for r in range(tree.topLevelItem(g).childCount())
    }
    gone, present = rows["miyagi"], rows["alisio/memory.sqlite"]
    assert gone.data(0, GONE_ROLE) and gone.font(0).italic()  # not colour alone
    for name in ("dark", "light"):
        window.set_theme(name)
        base = tree.palette().color(QPalette.ColorRole.Base)
        assert gone.foreground(0).color().name() == NAMED[name].subdued
        assert theme.contrast(gone.foreground(0).color(), base) >= 4.5
        # a present row draws in the palette's text colour, whatever the theme
        assert present.data(0, Qt.ItemDataRole.ForegroundRole) is None
        assert theme.contrast(tree.palette().color(QPalette.ColorRole.Text), base) >= 4.5


@pytest.mark.parametrize("name", THEMES)
def test_the_live_indicator_reads_well_and_says_its_state_in_words(qtbot, db_window, name) -> None:
    window = db_window
    window.set_theme(name)
    live = widget(window, QToolButton, "liveIndicator")
    colours = live.palette()
    assert (
        theme.contrast(
            colours.color(QPalette.ColorRole.ButtonText), colours.color(QPalette.ColorRole.Window)
        )
        >= 4.5
    )
    assert "Live" in live.text()
    qtbot.mouseClick(live, Qt.MouseButton.LeftButton)
    assert "Paused" in live.text() and "paused" in live.accessibleDescription()
    qtbot.mouseClick(live, Qt.MouseButton.LeftButton)
    assert "Live" in live.text()


# -- the compare dialog and the conflict banner --------------------------------------------------


def _entry(folder: Path, name: str, body: str) -> Path:
    path = folder / f"{name}.md"
    path.write_text(
        f"---\nname: {name}\ndescription: About {name}\ntype: user\n"
        f"updated: 2026-10-02T17:03:11.532Z\n---\n\n{body}\n",
        "utf-8",
    )
    return path


@pytest.fixture
def conflict(qtbot, open_window, tmp_path: Path, monkeypatch):
    """The persona page with "mine" in the editor, the file changed behind it, and Compare
    pressed: (window, banner, dialog, path)."""
    folder = tmp_path / ".miyagi" / "memory"
    folder.mkdir(parents=True)
    path = _entry(folder, "likes-tea", "Rule: green tea only.")
    window = open_window(["--persona", str(folder)])
    page = window.persona_page
    body = widget(page, QPlainTextEdit, "personaBody")
    qtbot.waitUntil(lambda: body.toPlainText() == "Rule: green tea only.")
    body.setPlainText("mine")
    path.write_text(path.read_text("utf-8").replace("green tea", "GREEN tea"), "utf-8")
    widget(page, QPushButton, "personaSave").click()
    banner = widget(page, ConflictBanner, "conflictBanner")
    assert banner.isVisible()
    widget(banner, QPushButton, "conflictCompare").click()
    dialog = widget(page, CompareDialog, "compareDialog")
    assert dialog.isVisible()
    yield window, banner, dialog, path
    # the window closes without asking about edits a test left
    monkeypatch.setattr(
        QMessageBox, "question", lambda *_a, **_k: QMessageBox.StandardButton.Discard
    )


def test_the_diff_is_coloured_from_the_theme_and_keeps_its_signs(conflict) -> None:
    window, _banner, dialog, _path = conflict
    text = dialog.diff_view.toPlainText()
    assert "-Rule: GREEN tea only." in text and "+mine" in text  # the signs stay
    for name in ("light", "dark", "light"):
        window.set_theme(name)
        colours = dialog.line_colours()
        assert colours["+mine"] == NAMED[name].diff_added
        assert colours["-Rule: GREEN tea only."] == NAMED[name].diff_removed
        assert not any(line.startswith(("+++", "---", "@@", " ")) for line in colours)
        for fill, ink in colours.values():
            assert theme.contrast(fill, ink) >= 4.5


def test_take_theirs_in_the_dialog_answers_the_banner(qtbot, conflict) -> None:
    window, banner, dialog, path = conflict
    dialog.follow(banner)  # what the pages' compare_dialog() does with the banner
    chosen = []
    dialog.chosen.connect(chosen.append)
    take = dialog.button("compareTakeTheirs")
    assert take.isEnabled() and dialog.button("compareKeepMine").isEnabled()
    qtbot.mouseClick(take, Qt.MouseButton.LeftButton)
    assert chosen == [CompareDialog.TAKE_THEIRS] and dialog.choice == CompareDialog.TAKE_THEIRS
    assert dialog.result() == CompareDialog.RESULT_TAKE_THEIRS and dialog.isHidden()
    assert banner.isHidden()  # the banner's Reload theirs ran
    body = widget(window.persona_page, QPlainTextEdit, "personaBody")
    assert body.toPlainText() == "Rule: GREEN tea only."


def test_keep_mine_in_the_dialog_by_keyboard(qtbot, conflict) -> None:
    window, banner, dialog, path = conflict
    dialog.follow(banner)
    theirs = path.read_bytes()
    dialog.activateWindow()
    qtbot.waitUntil(dialog.isActiveWindow)
    qtbot.keyClick(dialog.diff_view, Qt.Key.Key_M, Qt.KeyboardModifier.AltModifier)
    qtbot.waitUntil(lambda: dialog.choice is not None)  # a mnemonic clicks after a short flash
    assert dialog.choice == CompareDialog.KEEP_MINE
    assert dialog.result() == CompareDialog.RESULT_KEEP_MINE
    assert banner.isHidden()
    assert path.read_bytes() != theirs and path.read_text("utf-8").endswith("\n\nmine\n")


def test_the_dialog_offers_a_choice_only_while_the_banner_asks(qtbot, conflict) -> None:
    window, banner, dialog, _path = conflict
    dialog.follow(banner)
    widget(banner, QPushButton, "conflictReload").click()  # answered on the banner instead
    assert not dialog.button("compareKeepMine").isEnabled()
    assert not dialog.button("compareTakeTheirs").isEnabled()


@pytest.mark.parametrize("name", THEMES)
def test_the_conflict_banner_is_a_warning_in_both_themes(conflict, name) -> None:
    window, banner, _dialog, _path = conflict
    window.set_theme(name)
    assert banner.property("tone") == "warning"
    assert background(banner) == NAMED[name].tone("warning").background
    message = widget(banner, QLabel, "conflictMessage")
    assert text_colour(message).name() == NAMED[name].tone("warning").text


# -- unsaved edits in the title bar --------------------------------------------------------------


def test_the_title_marks_unsaved_edits_whichever_page_is_in_front(
    qtbot, open_window, tmp_path: Path
) -> None:
    folder = make_persona_folder(tmp_path / ".miyagi" / "memory", ("likes-tea",))
    db = make_database(tmp_path / "alisio" / "memory.sqlite", ("A note",))
    window = open_window(["--db", str(db), "--persona", str(folder)])
    window.show_page("persona")
    assert window.windowTitle().endswith("[*]") and not window.isWindowModified()
    body = widget(window.persona_page, QPlainTextEdit, "personaBody")
    qtbot.waitUntil(lambda: body.toPlainText() != "")
    body.setFocus()
    qtbot.keyClicks(body, " more")
    assert window.isWindowModified()
    action(window, "showObservationsAction").trigger()  # the draft waits on a hidden page
    assert window.current_page_name() == "observations" and window.isWindowModified()
    action(window, "showPersonaAction").trigger()
    save = widget(window.persona_page, QPushButton, "personaSave")
    qtbot.mouseClick(save, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not window.isWindowModified())


def test_the_title_marks_an_observation_being_edited(qtbot, open_window, tmp_path: Path) -> None:
    """F2's form: typing marks the title bar and the row, typing the text back clears them,
    Cancel closes the form."""
    db = make_database(tmp_path / "alisio" / "memory.sqlite", ("A note",))
    window = open_window(["--db", str(db)])
    table = widget(window, QWidget, "observationsTable")
    qtbot.waitUntil(lambda: table.model().rowCount() == 1)
    table.setFocus()
    table.selectRow(0)
    qtbot.keyClick(table, Qt.Key.Key_F2)
    title = widget(window, QWidget, "editTitle")
    qtbot.waitUntil(title.isVisible)
    assert not window.isWindowModified()
    title.setFocus()
    qtbot.keyClicks(title, "!")
    assert window.isWindowModified()
    qtbot.keyClick(title, Qt.Key.Key_Backspace)
    assert not window.isWindowModified()  # the form holds the stored text again
    qtbot.keyClicks(title, "?")
    assert window.isWindowModified()
    cell = next(
        table.model().index(0, c)
        for c in range(table.model().columnCount())
        if str(table.model().index(0, c).data() or "").endswith("A note")
    )
    assert cell.data() == "• A note"  # the list marks the row too, as the persona list does
    assert "Unsaved edits" in cell.data(Qt.ItemDataRole.ToolTipRole)
    qtbot.mouseClick(widget(window, QPushButton, "cancelEditButton"), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not window.isWindowModified())
    assert cell.data() == "A note"


@pytest.mark.parametrize("name", ["light", "dark"])
def test_check_boxes_stand_out_from_the_window(qtbot, name: str) -> None:
    """A check box's outline keeps 3:1 against the window (WCAG for controls) in both themes:
    Fusion draws it darker than the window, which on dark is all but invisible."""
    from PySide6.QtWidgets import QCheckBox

    theme.apply_theme(name)
    box = QCheckBox("Pinned only")
    qtbot.addWidget(box)
    box.show()
    qtbot.waitExposed(box)
    image = box.grab().toImage()
    window = theme.colors().window
    best = max(
        theme.contrast(image.pixelColor(x, y), window)
        for x in range(min(18, image.width()))
        for y in range(image.height())
    )
    assert best >= 3.0


@pytest.mark.parametrize("named", [theme.LIGHT, theme.DARK], ids=["light", "dark"])
def test_every_pair_of_the_theme_reads_at_4_5_to_1(named) -> None:
    """Each text colour against each background it is drawn on: tones, badges (one for every
    type the plugin writes), matches, diff lines, secondary and status text, syntax."""
    pairs = [(t.background, t.text, f"tone {n}") for n, t in named.tones.items()]
    assert set(named.badges) == set(theme.TYPE_NAMES)
    pairs += [(bg, fg, f"badge {n}") for n, (bg, fg) in named.badges.items()]
    pairs += [(bg, fg, f"persona {n}") for n, (bg, fg) in named.persona_badges.items()]
    pairs += [
        (*named.badge_unknown, "unknown type"),
        (*named.match, "match"),
        (*named.diff_added, "added"),
        (*named.diff_removed, "removed"),
    ]
    for name in ("text", "subdued", "error_text", "warning_text", "ok_text", "link"):
        pairs += [
            (getattr(named, where), getattr(named, name), f"{name} on {where}")
            for where in ("window", "base")
        ]
    pairs += [(named.base, colour, f"syntax {n}") for n, colour in named.syntax.items()]
    low = [
        f"{what}: {theme.contrast(bg, fg):.2f}"
        for bg, fg, what in pairs
        if theme.contrast(bg, fg) < 4.5
    ]
    assert low == []
