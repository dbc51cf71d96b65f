"""Hostile text stays inert: HTML in a file or a row shows literally and loads nothing.

Qt renders a string as HTML wherever it *looks* like HTML (a known tag before the first line
break), in labels, tooltips and message boxes. The agents' files and rows are written by
programs and by whatever they were told: a title ``<img src="http://…">`` must not fetch an
image, a description with ``<a href>`` must not show a link. The texts here are in real files
written as agent-kit writes them and real rows saved by the plugin's own rules; the window is
driven by object names. For each widget the test checks what a person would see: the label's
text format, and the text Qt shows (rendered as Qt would render it); for the previews, that no
image outside the folder was loaded.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QColor, QImage, QTextDocument
from PySide6.QtGui import Qt as GuiQt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QTextBrowser,
    QTreeWidget,
    QWidget,
)

from memory_desk.core import alisio
from memory_desk.ui.observations.model import Column
from memory_desk.ui.persona.conflict import disk_conflict_banner
from memory_desk.ui.persona.rename import RenameDialog
from memory_desk.ui.plain import as_shown, from_shown
from window_helpers import make_database, table, writes_done

pytest_plugins = ["window_fixture"]

PLAIN = Qt.TextFormat.PlainText
IMAGE = QTextDocument.ResourceType.ImageResource.value


def shown(text: str, text_format: Qt.TextFormat = Qt.TextFormat.AutoText) -> str:
    """What a widget with ``text_format`` shows for ``text``, as the characters a person reads."""
    rich = text_format == Qt.TextFormat.RichText or (
        text_format == Qt.TextFormat.AutoText and GuiQt.mightBeRichText(text)
    )
    if not rich:
        return text
    document = QTextDocument()
    document.setHtml(text)
    return document.toPlainText()


def label(widget: QWidget, name: str) -> QLabel:
    found = widget.findChild(QLabel, name)
    assert found is not None, name
    return found


def shows_literally(found: QLabel, text: str) -> None:
    """The label renders its text as text, and shows ``text`` character for character."""
    assert found.textFormat() == PLAIN, found.objectName()
    assert text in found.text()


def loaded(document: QTextDocument, url: QUrl) -> bool:
    """Whether ``document`` holds an image for ``url`` (asking loads it if the view lets it)."""
    found = document.resource(IMAGE, url)
    return found is not None and not found.isNull()


def picture(path: Path) -> Path:
    """A real image file: a text that names it would load it if rendered as HTML."""
    image = QImage(8, 8, QImage.Format.Format_RGB32)
    image.fill(QColor("red"))
    assert image.save(str(path))
    return path


# -- as_shown itself ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        '<img src="http://127.0.0.1:9/x.png"> and more',
        "<a href='http://example.com'>click</a>",
        "Tom & Jerry &amp; &lt;b&gt;",
        "  two  spaces\nand <b>a line</b>\n\nbreak",
        "<!DOCTYPE html><p>hi</p>",
    ],
)
def test_as_shown_text_reads_literally_wherever_qt_guesses_the_format(text: str) -> None:
    assert shown(as_shown(text)) == text
    assert from_shown(as_shown(text)) == text


def test_as_shown_leaves_text_without_markup_as_it_is() -> None:
    for text in ("likes-tea", "3 entries · 2 with problems", "", None):
        assert as_shown(text) == text


# -- the persona page -----------------------------------------------------------------------------


DESCRIPTION = '<img src="http://127.0.0.1:9/track.png"> <a href="http://127.0.0.1:9/">tea</a> & co'
ODD_NAME = "<b>odd <img src=pic.png>"


def agent_entry(folder: Path, name: str, description: str, body: str, extra: str = "") -> None:
    """An entry exactly as agent-kit writes it (plus any header lines a person added)."""
    (folder / f"{name}.md").write_bytes(
        (
            f"---\nname: {name}\ndescription: {description}\ntype: user\n"
            f"updated: 2026-10-02T17:03:11.532Z\n{extra}---\n\n{body}\n"
        ).encode()
    )


@pytest.fixture
def hostile_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder whose own name, entries, headers, bodies and sub-folder hold HTML."""
    monkeypatch.chdir(tmp_path)  # a relative <img src=pic.png> would find this one
    picture(tmp_path / "pic.png")
    outside = picture(tmp_path / "outside.png")
    folder = tmp_path / "<b>mem</b> <img src=pic.png>" / "memory"
    folder.mkdir(parents=True)
    picture(folder / "inside.png")
    body = (
        "# Tea\n\n![web](http://127.0.0.1:9/web.png) ![outside]("
        f"{QUrl.fromLocalFile(str(outside)).toString()}) ![up](../../outside.png) "
        "![inside](inside.png)\n"
    )
    agent_entry(folder, "likes-tea", DESCRIPTION, body, extra="mood: <img src=pic.png>\n")
    agent_entry(folder, ODD_NAME, "An odd <a href='x'>name</a>", "Odd.")
    (folder / "box.md").symlink_to(folder.parent)  # its message names the folder it points to
    return folder


def test_persona_texts_from_files_show_literally(
    qtbot, open_window, hostile_folder: Path, monkeypatch
) -> None:
    window = open_window(["--persona", str(hostile_folder)])
    page = window.persona_page
    # the sidebar: the folder's path in its tooltip and in its details under the list
    item = window.findChild(QTreeWidget, "sourcesList").currentItem()
    assert str(hostile_folder) in shown(item.toolTip(0))
    shows_literally(label(window, "sourceDetails"), str(hostile_folder))  # behind "Details"
    # the folder's own problem names the folder a link named like an entry points to
    shows_literally(label(page, "personaFolderProblemsText"), str(hostile_folder.parent))
    # the list's tooltips: the description and the odd name as written
    view = page.findChild(QAbstractItemView, "personaList")
    model = view.model()
    names = [model.index(r, 0).data(Qt.ItemDataRole.UserRole) for r in range(model.rowCount())]
    tea = model.index(names.index("likes-tea"), 2)
    assert shown(tea.data(Qt.ItemDataRole.ToolTipRole)) == DESCRIPTION
    odd = model.index(names.index(ODD_NAME), 0)
    assert shown(odd.data(Qt.ItemDataRole.ToolTipRole)).startswith(ODD_NAME + "\n")
    # the problems panel quotes the header line the agent ignores and the odd name
    view.setCurrentIndex(model.index(names.index("likes-tea"), 0))
    problems = page.findChild(QWidget, "personaProblems")
    texts = [found for found in problems.findChildren(QLabel) if found.text()]
    assert texts and all(found.textFormat() == PLAIN for found in texts)
    view.setCurrentIndex(odd)
    texts = [found for found in problems.findChildren(QLabel) if ODD_NAME in found.text()]
    assert texts and all(found.textFormat() == PLAIN for found in texts)


def test_the_persona_preview_loads_only_images_inside_the_folder(
    qtbot, open_window, hostile_folder: Path
) -> None:
    window = open_window(["--persona", str(hostile_folder)])
    page = window.persona_page
    view = page.findChild(QAbstractItemView, "personaList")
    names = [view.model().index(r, 0).data(Qt.ItemDataRole.UserRole) for r in range(3)]
    view.setCurrentIndex(view.model().index(names.index("likes-tea"), 0))
    preview = page.findChild(QTextBrowser, "personaPreview")
    qtbot.waitUntil(lambda: "Tea" in preview.toPlainText())
    preview.grab()  # paint it: every image it would show is asked for now
    assert not preview.openLinks() and not preview.openExternalLinks()
    blocked = " ".join(preview.blocked)
    for refused in ("http://127.0.0.1:9/web.png", "outside.png"):
        assert refused in blocked
    assert "inside.png" not in blocked
    document = preview.document()
    for url in preview.blocked:
        assert not loaded(document, QUrl(url)), url


def test_a_hostile_entry_name_in_the_unsaved_question_shows_literally(
    qtbot, open_window, hostile_folder: Path, monkeypatch
) -> None:
    window = open_window(["--persona", str(hostile_folder)])
    page = window.persona_page
    view = page.findChild(QAbstractItemView, "personaList")
    names = [view.model().index(r, 0).data(Qt.ItemDataRole.UserRole) for r in range(3)]
    view.setCurrentIndex(view.model().index(names.index(ODD_NAME), 0))
    body = page.findChild(QPlainTextEdit, "personaBody")
    assert not body.isReadOnly()
    body.setPlainText("Edited.")
    asked: list[str] = []

    def question(_parent, _title, text, *_args, **_kwargs):
        asked.append(text)
        return QMessageBox.StandardButton.Cancel

    monkeypatch.setattr(QMessageBox, "question", question)
    view.setCurrentIndex(view.model().index(names.index("likes-tea"), 0))
    assert len(asked) == 1
    assert f"unsaved edits to {ODD_NAME}." in shown(asked[0])
    monkeypatch.setattr(QMessageBox, "question", lambda *_a, **_k: QMessageBox.Discard)


def test_banners_and_hints_that_quote_names_are_plain_text(qtbot) -> None:
    parent = QWidget()
    qtbot.addWidget(parent)
    banner = disk_conflict_banner(parent)
    assert label(banner, "conflictMessage").textFormat() == PLAIN
    dialog = RenameDialog(ODD_NAME, "odd")
    qtbot.addWidget(dialog)
    assert label(dialog, "personaRenameHint").textFormat() == PLAIN


# -- the observations page ------------------------------------------------------------------------


TITLE = '<img src="http://127.0.0.1:9/t.png"> <a href="http://127.0.0.1:9/">Token</a> & race'
PROJECT = "<b>proj</b><img src=pic.png>"
TOPIC = "<i>auth</i>/<img src=pic.png>"


@pytest.fixture
def hostile_db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    monkeypatch.chdir(tmp_path)
    pic = picture(tmp_path / "pic.png")
    path = make_database(tmp_path / "<b>db</b> <img src=pic.png>" / "memory.sqlite", ())
    conn = alisio.connect_like_plugin(path)
    try:
        alisio.save_observation(
            conn,
            title=TITLE,
            content=(
                f"**What** ![local]({QUrl.fromLocalFile(str(pic)).toString()}) "
                '![web](http://127.0.0.1:9/w.png) <img src="pic.png">'
            ),
            type="decision",
            project=PROJECT,
            scope="project",
            session_id="<s>session</s>",
            now=1_790_000_000_000,
        )
        # The plugin normalises the keys it saves; an older writer's key may be anything.
        conn.execute("UPDATE observations SET topic_key = ?", (TOPIC,))
    finally:
        conn.close()
    return path, pic


def test_observation_texts_from_rows_show_literally_and_load_nothing(
    qtbot, open_window, hostile_db: tuple[Path, Path]
) -> None:
    path, pic = hostile_db
    window = open_window(["--db", str(path)])
    view = table(window)
    qtbot.waitUntil(lambda: view.model().rowCount() == 1)
    title_tip = view.model().index(0, Column.TITLE).data(Qt.ItemDataRole.ToolTipRole)
    assert shown(title_tip) == TITLE
    assert str(path) in shown(window.findChild(QTreeWidget, "sourcesList").currentItem().toolTip(0))
    shows_literally(label(window, "sourceDetails"), str(path))  # behind "Details"
    view.setCurrentIndex(view.model().index(0, Column.TITLE))
    detail = window.findChild(QWidget, "observationDetail")
    qtbot.waitUntil(lambda: label(detail, "observationTitle").text() != "")
    shows_literally(label(detail, "observationTitle"), TITLE)
    meta = label(detail, "observationMeta")
    for fact in (PROJECT, TOPIC, "<s>session</s>"):
        assert fact in shown(meta.text(), meta.textFormat())
    assert label(detail, "editError").textFormat() == PLAIN
    content = detail.findChild(QTextBrowser, "observationContent")
    content.grab()
    assert not content.openLinks() and not content.openExternalLinks()
    document = content.document()
    for url in (QUrl.fromLocalFile(str(pic)), QUrl("http://127.0.0.1:9/w.png"), QUrl("pic.png")):
        assert not loaded(document, url), url


# -- hidden characters ----------------------------------------------------------------------------
# Bidi controls and zero-width characters show as marked placeholders (⟨U+202E⟩, in the warning
# colour where painted) wherever text is shown on a line; editors keep the text as stored and
# name the hidden characters in a note; saving leaves them exactly as they were.

RLO, PDF, ZWSP = "\u202e", "\u202c", "\u200b"
HIDDEN_DESCRIPTION = f"Prefers {RLO}neerg{PDF} tea{ZWSP}"
SHOWN_DESCRIPTION = "Prefers ⟨U+202E⟩neerg⟨U+202C⟩ tea⟨U+200B⟩"
HIDDEN_TITLE = f"Rotate the {RLO}syek{PDF} weekly{ZWSP}"
SHOWN_TITLE = "Rotate the ⟨U+202E⟩syek⟨U+202C⟩ weekly⟨U+200B⟩"


def warning_pixels(view: QAbstractItemView, index) -> int:
    """Pixels of the theme's warning colour painted in the cell of ``index``."""
    from memory_desk.ui import theme

    image = view.viewport().grab(view.visualRect(index)).toImage()
    wanted = QColor(theme.colors().warning_text).rgb()
    return sum(
        image.pixel(x, y) == wanted for x in range(image.width()) for y in range(image.height())
    )


def test_hidden_characters_in_persona_entries_show_and_are_saved_unchanged(
    qtbot, open_window, tmp_path: Path
) -> None:
    folder = tmp_path / "memory"
    folder.mkdir()
    agent_entry(folder, "likes-tea", HIDDEN_DESCRIPTION, f"Green, never black.{ZWSP}")
    agent_entry(folder, "plain-entry", "Nothing hidden here at all", "Plain.")
    agent_entry(folder, f"odd{ZWSP}name", "A name with a zero-width space", "Odd.")
    window = open_window(["--persona", str(folder)])
    page = window.persona_page
    view = page.findChild(QAbstractItemView, "personaList")
    model = view.model()
    qtbot.waitUntil(lambda: model.rowCount() >= 3)
    names = [model.index(r, 0).data(Qt.ItemDataRole.UserRole) for r in range(model.rowCount())]

    tea = model.index(names.index("likes-tea"), 2)
    assert tea.data() == SHOWN_DESCRIPTION
    assert shown(tea.data(Qt.ItemDataRole.ToolTipRole)) == SHOWN_DESCRIPTION
    assert model.index(names.index(f"odd{ZWSP}name"), 0).data().endswith("odd⟨U+200B⟩name")
    plain = model.index(names.index("plain-entry"), 2)
    assert warning_pixels(view, tea) > 0 and warning_pixels(view, plain) == 0  # in colour

    view.setCurrentIndex(model.index(names.index("likes-tea"), 0))
    description = page.findChild(QLineEdit, "personaDescription")
    assert description.text() == HIDDEN_DESCRIPTION  # the editor holds the text as stored
    note = page.findChild(QLabel, "personaHiddenCharacters")
    qtbot.waitUntil(lambda: note.isVisible())
    assert "U+202E right-to-left override (character 9)" in note.text()
    assert "in the body" in note.text() and "U+200B zero width space" in note.text()

    body = page.findChild(QPlainTextEdit, "personaBody")
    body.setPlainText(f"Green, never black.{ZWSP} Oolong too.")
    with qtbot.waitSignal(page.info_raised):
        page.findChild(QPushButton, "personaSave").click()
    text = (folder / "likes-tea.md").read_text("utf-8")
    assert f"description: {HIDDEN_DESCRIPTION}\n" in text
    assert f"Green, never black.{ZWSP} Oolong too.\n" in text
    assert "⟨" not in text


def test_hidden_characters_in_observations_show_and_are_saved_unchanged(
    qtbot, open_window, tmp_path: Path
) -> None:
    path = make_database(tmp_path / "memory.sqlite", ("A plain title to compare with",))
    conn = alisio.connect_like_plugin(path)
    try:
        saved = alisio.save_observation(
            conn,
            title=HIDDEN_TITLE,
            content="**What** keys",
            type="decision",
            project=f"proj{ZWSP}",
            now=1_790_000_000_000,
        )
    finally:
        conn.close()
    window = open_window(["--db", str(path)])
    view = table(window)
    model = view.model()
    qtbot.waitUntil(lambda: model.rowCount() == 2)
    row = model.row_of(saved.id)
    title = model.index(row, Column.TITLE)
    assert title.data() == SHOWN_TITLE
    assert model.index(row, Column.PROJECT).data() == "proj⟨U+200B⟩"
    assert shown(title.data(Qt.ItemDataRole.ToolTipRole)) == SHOWN_TITLE
    other = model.index(1 - row, Column.TITLE)
    assert warning_pixels(view, title) > 0 and warning_pixels(view, other) == 0

    view.setCurrentIndex(title)
    detail = window.findChild(QWidget, "observationDetail")
    qtbot.waitUntil(lambda: label(detail, "observationTitle").text() != "")
    assert label(detail, "observationTitle").text() == SHOWN_TITLE
    meta = label(detail, "observationMeta")
    assert "proj⟨U+200B⟩" in shown(meta.text(), meta.textFormat())

    window.findChild(QWidget, "editButton").click()
    edit_title = window.findChild(QLineEdit, "editTitle")
    assert edit_title.isVisible() and edit_title.text() == HIDDEN_TITLE
    note = window.findChild(QLabel, "editHiddenCharacters")
    qtbot.waitUntil(lambda: note.isVisible())
    assert "in the title" in note.text() and "U+202E right-to-left override" in note.text()
    window.findChild(QPlainTextEdit, "editContent").setPlainText("**What** keys, weekly")
    window.findChild(QWidget, "saveEditButton").click()
    writes_done(window)
    with alisio.connect_like_plugin(path) as check:
        stored = check.execute(
            "SELECT title, content FROM observations WHERE id = ?", (saved.id,)
        ).fetchone()
    assert stored == (HIDDEN_TITLE, "**What** keys, weekly")


def test_hidden_characters_in_the_sidebar_and_chats_show_as_placeholders(
    qtbot, open_window, tmp_path: Path
) -> None:
    folder = tmp_path / f"mem{RLO}yro" / "memory"
    folder.mkdir(parents=True)
    agent_entry(folder, "likes-tea", "Green", "Green.")
    path = make_database(tmp_path / "memory.sqlite", ())
    conn = alisio.connect_like_plugin(path)
    try:
        alisio.save_observation(
            conn,
            title="In a chat",
            content="**What** x",
            type="decision",
            project=f"proj{ZWSP}",
            session_id="chat-1",
        )
    finally:
        conn.close()
    window = open_window(["--db", str(path), "--persona", str(folder)])
    sidebar = window.findChild(QTreeWidget, "sourcesList")
    labels = []
    for top in range(sidebar.topLevelItemCount()):
        group = sidebar.topLevelItem(top)
        labels += [group.child(n).text(0) for n in range(group.childCount())]
        labels += [shown(group.child(n).toolTip(0)) for n in range(group.childCount())]
    assert any("mem⟨U+202E⟩yro" in text for text in labels), labels
    assert not any(RLO in text for text in labels)

    window.show_page("chats")
    chats = window.findChild(QAbstractItemView, "chatsTable")
    qtbot.waitUntil(lambda: chats.model().rowCount() == 1)
    model = chats.model()
    cells = [model.index(0, c).data() for c in range(model.columnCount())]
    assert "proj⟨U+200B⟩" in cells, cells
