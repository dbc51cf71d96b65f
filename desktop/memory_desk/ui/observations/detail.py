"""The detail pane: one observation read in full, and its edit form.

Reading shows the title, every stored fact about the row and the content rendered as
markdown, so the plugin's **What** / **Why** / **Where** / **Learned** sections read as
sections. The browser opens no links and loads no images or remote resources: memories are
untrusted text written by an agent.

The edit form stays bound to the observation it was opened for, even if the table's current
row changes or the row is refreshed underneath, so typed text is never lost or applied to the
wrong row. Validation mirrors the plugin's rules and is shown inline.

When another program changes the row being edited, the page hands the new version to
:meth:`ObservationDetail.follow_edited`. A pin, a read or a duplicate save changes none of
the text and is absorbed quietly; a rewrite reloads a form without edits, and shows the
conflict banner (:mod:`.conflict`) over a form with edits; a forget or a delete shows the
banner with Keep / Close. Saving never goes past an unanswered banner.

Words are the person's language; the facts (title, content, ids, keys) are data. Dates are
:mod:`memory_desk.ui.dates`' detailed style; the type badge and the subdued names take the
theme's colours and are drawn again when the theme changes. Long ids (a session's) are cut in
the middle, with the whole id on hover. The search's words are marked in the title and the
content the reader shows (:mod:`.highlight`). Its signals: :class:`ObservationDetail`.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from memory_desk.core.alisio import OBSERVATION_TYPES, over_content_cap, preview_title
from memory_desk.core.hidden_text import reveal
from memory_desk.core.observations import Observation
from memory_desk.ui import dates, i18n, theme
from memory_desk.ui.elide import short_id
from memory_desk.ui.hidden import HiddenCharactersNote, marked_html
from memory_desk.ui.i18n import translate
from memory_desk.ui.observations.conflict import (
    CHANGED,
    DELETED,
    FORGOTTEN,
    as_text,
    compare_dialog,
    edit_conflict_banner,
    observation_text,
)
from memory_desk.ui.observations.highlight import DetailMarks
from memory_desk.ui.observations.long_text import CutNote, SlicedFill
from memory_desk.ui.observations.stored_note import StoredPreviewPanel
from memory_desk.ui.observations.topic_field import StoredTopicLabel
from memory_desk.ui.widgets.conflict import CompareDialog
from memory_desk.ui.widgets.content_browser import ContentBrowser
from memory_desk.ui.widgets.display import now_ms, pin_glyph, scope_label, sectioned_markdown

# What :meth:`ObservationDetail.follow_edited` did with a new version of the edited row.
UNCHANGED = "unchanged"  # nothing the form shows changed (or the banner already says so)
RELOADED = "reloaded"  # the form had no edits and now shows the new version
CONFLICT = "conflict"  # the banner asks the person what to do

_TEXT_FIELDS = ("title", "type", "topic_key", "content")
# Ids longer than twice this are cut in the middle in the detail (the whole id is on hover).
_ID_KEEP = 16


def text_changed(before: Observation, after: Observation) -> bool:
    """Did the fields a person reads and edits change (not a pin, a read or a duplicate)?"""
    return any(getattr(before, name) != getattr(after, name) for name in _TEXT_FIELDS)


class ObservationDetail(QWidget):
    """Read one observation; edit it (see the module docstring).

    Signals:
        save_requested(Observation, dict, bool): the row the edit is based on (the save is
            refused if it changed since), the changed fields, and whether to restore it too
        recreate_requested(Observation, dict): the agent deleted the base row and the person
            kept editing: save every field of the form as a new row
        edit_started(): the form opened
        edit_finished(): the form closed (saved or cancelled)
    """

    save_requested = Signal(object, dict, bool)
    recreate_requested = Signal(object, dict)
    edit_started = Signal()
    edit_finished = Signal()
    unsaved_changed = Signal(bool)  # the form now holds (or no longer holds) unsaved edits

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("observationDetail")
        self.setAccessibleName(translate("ObservationDetail", "Observation"))
        self._shown: Observation | None = None
        self._editing: Observation | None = None
        self._rendered_id: int | None = None  # keeps the content's scroll on a refresh
        # While the conflict banner waits: which kind, and the row as the other program left it.
        self._conflict: str | None = None
        self._theirs: Observation | None = None
        self._restore_on_save = False  # Keep on a forgotten row: the save brings it back
        self._gone = False  # Keep on a deleted row: saving creates it again as a new row
        self.compare_dialog: CompareDialog | None = None
        self._stack = QStackedWidget(self)
        self._stack.addWidget(self._build_empty())
        self._stack.addWidget(self._build_reader())
        self._stack.addWidget(self._build_editor())
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self._stack)
        theme.notifier().changed.connect(self._on_theme_changed)

    # -- building -----------------------------------------------------------------------------

    def _build_empty(self) -> QWidget:
        label = QLabel(
            translate("ObservationDetail", "Select an observation to read it here."), self
        )
        label.setObjectName("observationPlaceholder")
        label.setEnabled(False)
        label.setWordWrap(True)
        return label

    def _build_reader(self) -> QWidget:
        page = QWidget(self)
        self.title_label = QLabel(page)
        self.title_label.setObjectName("observationTitle")
        self.title_label.setWordWrap(True)
        self.title_label.setTextFormat(Qt.TextFormat.PlainText)
        self.title_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        font = QFont(self.title_label.font())
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.15)
        self.title_label.setFont(font)
        # Labels are read by their text: a description says what the text is.
        self.title_label.setAccessibleDescription(translate("ObservationDetail", "Title"))
        i18n.mark_data(self.title_label)
        self.marks = DetailMarks(self.title_label)  # the search's words, marked
        self.meta_label = QLabel(page)
        self.meta_label.setObjectName("observationMeta")
        self.meta_label.setTextFormat(Qt.TextFormat.RichText)
        self.meta_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.meta_label.setAlignment(Qt.AlignmentFlag.AlignTop)
        self.meta_label.setSizePolicy(QSizePolicy.Policy.Maximum, QSizePolicy.Policy.Preferred)
        self.meta_label.setAccessibleDescription(
            translate("ObservationDetail", "Every stored fact about the observation")
        )
        # Its row names are translated (tests/test_ui_observations_looks.py checks them); the
        # values beside them are the row's data, so the generic untranslated check skips it.
        i18n.mark_data(self.meta_label)
        self.content_view = ContentBrowser(page)
        self.content_view.setObjectName("observationContent")
        self.content_view.setAccessibleName(translate("ObservationDetail", "Content"))
        self.content_view.setAccessibleDescription(
            translate(
                "ObservationDetail",
                "The observation's content as markdown. Links are not followed and nothing is"
                " loaded from it.",
            )
        )
        i18n.mark_data(self.content_view)
        self.content_cut = CutNote(page, on_open_whole=self.start_edit)
        body = QHBoxLayout()
        body.setContentsMargins(0, 0, 0, 0)
        body.addWidget(self.meta_label)
        body.addWidget(self.content_view, 1)
        layout = QVBoxLayout(page)
        layout.setContentsMargins(8, 6, 8, 6)
        layout.addWidget(self.title_label)
        layout.addLayout(body, 1)
        layout.addWidget(self.content_cut)
        return page

    def _build_editor(self) -> QWidget:
        page = QWidget(self)
        self.editing_label = QLabel(page)
        self.editing_label.setObjectName("editHeading")
        self.edit_title = QLineEdit(page)
        self.edit_title.setObjectName("editTitle")
        self.edit_title.setAccessibleName(translate("ObservationDetail", "Title"))
        # No length limit here: a longer title is stored cut, and the counter and the note
        # below say so before saving (a silent limit would cut a paste without a word).
        self.edit_type = QComboBox(page)
        self.edit_type.setObjectName("editType")
        self.edit_type.setAccessibleName(translate("ObservationDetail", "Type"))
        i18n.mark_data(self.edit_type)  # its items are the plugin's type names
        self.edit_topic_key = QLineEdit(page)
        self.edit_topic_key.setObjectName("editTopicKey")
        self.edit_topic_key.setAccessibleName(translate("ObservationDetail", "Topic key"))
        self.edit_topic_key.setPlaceholderText(
            translate("ObservationDetail", "family/description, e.g. auth/token-refresh (optional)")
        )
        self.edit_content = QPlainTextEdit(page)
        self.edit_content.setObjectName("editContent")
        self.edit_content.setAccessibleName(translate("ObservationDetail", "Content"))
        self.edit_content.setAccessibleDescription(
            translate(
                "ObservationDetail",
                "Markdown; the agent writes the sections What, Why, Where and Learned.",
            )
        )
        self.edit_content.setPlaceholderText(
            translate("ObservationDetail", "**What** … **Why** … **Where** … **Learned** …")
        )
        self.stored = StoredPreviewPanel(self.edit_title, self.edit_content, page)
        self.stored_topic = StoredTopicLabel(self.edit_topic_key, page)
        self._fill = SlicedFill(self.edit_content)  # a long content goes in without a freeze
        self._fill.finished.connect(self.stored.refresh)
        self._fill.finished.connect(self._note_unsaved)
        self._unsaved = False
        for changed in (
            self.edit_title.textChanged,
            self.edit_topic_key.textChanged,
            self.edit_content.textChanged,
            self.edit_type.currentTextChanged,
            self.edit_started,
            self.edit_finished,
        ):
            changed.connect(self._note_unsaved)
        self.edit_error = QLabel(page)
        self.edit_error.setObjectName("editError")
        self.edit_error.setTextFormat(Qt.TextFormat.PlainText)  # messages quote titles and keys
        theme.set_text_tone(self.edit_error, "error")
        self.edit_error.setWordWrap(True)
        self.edit_error.hide()
        self.save_button = QPushButton(translate("ObservationDetail", "Save"), page)
        self.save_button.setObjectName("saveEditButton")
        self.save_button.setToolTip(
            translate("ObservationDetail", "Save the edit (Ctrl+S); Ctrl+Z undoes it")
        )
        self.save_button.setDefault(True)
        self.cancel_button = QPushButton(translate("ObservationDetail", "Cancel"), page)
        self.cancel_button.setObjectName("cancelEditButton")
        self.cancel_button.setToolTip(
            translate("ObservationDetail", "Leave the form without saving (Esc)")
        )
        self.save_button.clicked.connect(self.on_save_clicked)
        self.cancel_button.clicked.connect(self.cancel_edit)
        self.banner = edit_conflict_banner(page)
        self.banner.compare_requested.connect(self.on_compare)
        self.banner.keep_mine_requested.connect(self.on_keep_mine)
        self.banner.reload_requested.connect(self.on_reload_theirs)
        self.banner.keep_requested.connect(self.on_keep)
        self.banner.close_requested.connect(self.cancel_edit)
        save = QShortcut(QKeySequence.StandardKey.Save, page, self.on_save_clicked)
        save.setWhatsThis(translate("ObservationDetail", "Save the edit form"))
        # Esc leaves the form only from inside it: in the search box it clears the search.
        leave = QShortcut(QKeySequence(QKeySequence.StandardKey.Cancel), page, self.cancel_edit)
        leave.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        leave.setWhatsThis(translate("ObservationDetail", "Leave the edit form without saving"))

        fields = QFormLayout()
        title_label = QLabel(translate("ObservationDetail", "&Title"), page)
        title_label.setBuddy(self.edit_title)
        title_row = QHBoxLayout()
        title_row.addWidget(self.edit_title, 1)
        title_row.addWidget(self.stored.title_counter)
        fields.addRow(title_label, title_row)
        type_label = QLabel(translate("ObservationDetail", "T&ype"), page)
        type_label.setBuddy(self.edit_type)
        topic_label = QLabel(translate("ObservationDetail", "Topic &key"), page)
        topic_label.setBuddy(self.edit_topic_key)
        row = QHBoxLayout()
        row.addWidget(self.edit_type)
        row.addWidget(topic_label)
        row.addWidget(self.edit_topic_key, 1)
        fields.addRow(type_label, row)
        fields.addRow("", self.stored_topic)
        buttons = QHBoxLayout()
        buttons.addWidget(self.edit_error, 1)
        buttons.addStretch(0)  # keeps the buttons compact while no error shows
        buttons.addWidget(self.cancel_button)
        buttons.addWidget(self.save_button)
        layout = QVBoxLayout(page)
        layout.setContentsMargins(8, 6, 8, 6)
        layout.addWidget(self.editing_label)
        layout.addWidget(self.banner)
        layout.addLayout(fields)
        layout.addWidget(self.edit_content, 1)
        self.hidden_note = HiddenCharactersNote(self._hidden_fields(), page)
        self.hidden_note.setObjectName("editHiddenCharacters")
        layout.addWidget(self.hidden_note)
        stored = QHBoxLayout()
        stored.addWidget(self.stored.note, 1)
        stored.addWidget(self.stored.content_counter, 0, Qt.AlignmentFlag.AlignTop)
        layout.addLayout(stored)
        layout.addLayout(buttons)
        return page

    # -- reading ----------------------------------------------------------------------------

    @property
    def shown(self) -> Observation | None:
        """The observation the reader shows (or will show when the form closes)."""
        return self._shown

    @property
    def shown_id(self) -> int | None:
        return self._shown.id if self._shown is not None else None

    @property
    def is_editing(self) -> bool:
        return self._editing is not None

    @property
    def editing_id(self) -> int | None:
        return self._editing.id if self._editing is not None else None

    @property
    def conflict(self) -> str | None:
        """``"changed"``, ``"forgotten"`` or ``"deleted"`` while the banner waits, else None."""
        return self._conflict

    def has_unsaved_edits(self) -> bool:
        return self._editing is not None and (self._fill.typed_in_long() or bool(self._changes()))

    def _note_unsaved(self, *_args: object) -> None:
        """Say when the form starts or stops holding unsaved edits (the title bar's mark)."""
        unsaved = self.has_unsaved_edits()
        if unsaved != self._unsaved:
            self._unsaved = unsaved
            self.unsaved_changed.emit(unsaved)

    def show_observation(self, observation: Observation | None) -> None:
        """Show this observation (None: the placeholder); a no-op when nothing changed, so a
        refresh does not jump the content's scroll position."""
        if observation == self._shown:
            return
        self._shown = observation
        if self._editing is not None:
            return  # the form keeps its row; the reader catches up when it closes
        self._render()

    def set_highlight(self, words: Sequence[str]) -> None:
        """Mark these words (the search's) in the title and content the reader shows."""
        if self.marks.set_words(words) and self._shown is not None and self._editing is None:
            self._render()

    def highlight_count(self) -> int:
        return self.marks.count

    def _hidden_fields(self) -> list[tuple[QLineEdit | QPlainTextEdit, str]]:
        return [
            (self.edit_title, translate("ObservationDetail", "title")),
            (self.edit_topic_key, translate("ObservationDetail", "topic key")),
            (self.edit_content, translate("ObservationDetail", "content")),
        ]

    def _render(self) -> None:
        observation = self._shown
        if observation is None:
            self._stack.setCurrentIndex(0)
            return
        title = reveal(observation.title)  # hidden characters as placeholders
        self._show_meta(observation)
        scroll = self.content_view.verticalScrollBar().value()
        same_row = self._rendered_id == observation.id
        shown = self.content_cut.start_of(observation.content or "")  # (the whole: in the form)
        self.content_view.setMarkdown(sectioned_markdown(shown))
        title = f"{pin_glyph()} {title}" if observation.pinned else title
        self.marks.show(title, self.content_view.document())
        self._rendered_id = observation.id
        if same_row:
            self.content_view.verticalScrollBar().setValue(scroll)
        self._stack.setCurrentIndex(1)

    def _show_meta(self, observation: Observation) -> None:
        self.meta_label.setText(metadata_html(observation))
        self.meta_label.setToolTip(whole_ids(observation))

    def _on_theme_changed(self) -> None:
        """The badge, the subdued names and the marks are coloured in the HTML: write it again."""
        if self._shown is not None and self._stack.currentIndex() == 1:
            self._render()

    # -- editing ----------------------------------------------------------------------------

    def start_edit(self) -> bool:
        """Open the form on the shown observation; False when there is none."""
        if self._shown is None:
            return False
        if self._editing is not None:
            self.edit_title.setFocus()
            return True
        self._load_form(self._shown)
        self._stack.setCurrentIndex(2)
        self.edit_title.setFocus()
        self.edit_started.emit()
        return True

    def _load_form(self, observation: Observation) -> None:
        """Fill the form from this row, which becomes the base of the edit."""
        self._editing = observation
        self._clear_conflict()
        self._restore_on_save = self._gone = False
        self.editing_label.setText(
            translate("ObservationDetail", "Editing #{id}").format(id=observation.id)
        )
        self.edit_title.setText(observation.title)
        self.edit_type.clear()
        types = list(OBSERVATION_TYPES)
        if observation.type not in types:
            types.append(observation.type)  # a newer plugin's type stays selectable as it is
        self.edit_type.addItems(types)
        self.edit_type.setCurrentText(observation.type)
        self.stored_topic.follow(observation.topic_key)
        self.edit_topic_key.setText(observation.topic_key or "")
        self.stored.whole = over_content_cap(observation.content)  # an edit keeps it whole
        self._fill.fill(observation.content or "")
        self.edit_error.hide()
        self.stored.refresh(observation.content, observation.normalized_hash)

    def cancel_edit(self) -> None:
        if self._editing is None:
            return
        self.finish_edit()

    def finish_edit(self) -> None:
        """Close the form and show the current observation again."""
        self._editing = None
        self._fill.stop()
        self._clear_conflict()
        self._restore_on_save = self._gone = False
        self.edit_error.hide()
        self.stored.stop()
        self._render()
        self.edit_finished.emit()

    def show_edit_error(self, message: str) -> None:
        self.edit_error.setText(message)
        self.edit_error.show()

    def on_save_clicked(self) -> None:
        if self._editing is None:
            return
        if self._conflict is not None:
            self.show_edit_error(
                translate(
                    "ObservationDetail",
                    "Not saved: the observation changed in the database. Choose what to do in"
                    " the banner above first.",
                )
            )
            return
        problem = self._validation_problem()
        if problem:
            self.show_edit_error(problem)
            return
        if self._gone:
            self.edit_error.hide()
            self.recreate_requested.emit(self._editing, self._form_values())
            return
        changes = self._changes()
        if not changes:
            self.finish_edit()
            return
        self.edit_error.hide()
        self.save_requested.emit(self._editing, changes, self._restore_on_save)

    # -- the edited row changed underneath -----------------------------------------------------

    def follow_edited(self, fresh: Observation | None) -> str:
        """Take the edited row as it is in the database now (None: deleted); see the module
        docstring. Returns UNCHANGED, RELOADED or CONFLICT."""
        base = self._editing
        if base is None or (fresh is not None and fresh == base):
            return UNCHANGED
        if fresh is None:
            return self._on_gone(DELETED, None)
        if fresh.forgotten and not base.forgotten:
            return self._on_gone(FORGOTTEN, fresh)
        if not text_changed(base, fresh) or self._form_text() == observation_text(fresh):
            # A pin, a read, a duplicate, a restore, or the same text as the form: the edit
            # still applies to the new version, and nothing is left to decide.
            self._editing = fresh
            self._clear_conflict()
            return UNCHANGED
        if self._conflict == CHANGED:
            self._theirs = fresh  # revised again: Compare and Reload use the latest
            return UNCHANGED
        if not self._changes():
            self._load_form(fresh)
            return RELOADED
        self._theirs = fresh
        self._conflict = CHANGED
        self.banner.show_changed(
            translate(
                "ObservationDetail",
                "Observation #{id} was changed by another program (revision {revision}) while"
                " you were editing it. Your text is still here.",
            ).format(id=base.id, revision=i18n.number(fresh.revision_count))
        )
        return CONFLICT

    def rebase(self, fresh: Observation) -> None:
        """The app itself pinned, forgot or restored the edited row: take it as the new base
        (its text is unchanged, so the person's edit still applies)."""
        editing = self._editing
        if editing is not None and fresh.id == editing.id and not text_changed(editing, fresh):
            self._editing = fresh

    def _on_gone(self, kind: str, fresh: Observation | None) -> str:
        assert self._editing is not None
        self._theirs = fresh
        if self._conflict == kind or (kind == DELETED and self._gone):
            return UNCHANGED
        self._conflict = kind
        self._restore_on_save = False
        if kind == FORGOTTEN:
            message = translate(
                "ObservationDetail",
                "Another program forgot observation #{id} while you were editing it. Keep to go"
                " on (saving restores it), or Close.",
            )
        else:
            message = translate(
                "ObservationDetail",
                "Another program deleted observation #{id} while you were editing it. Keep to go"
                " on (saving creates it again, as a new observation), or Close.",
            )
        self.banner.show_gone(message.format(id=self._editing.id))
        return CONFLICT

    def on_compare(self) -> None:
        """Show the stored version against the form, as a unified diff, beside the form."""
        if self._editing is None:
            return
        theirs = self._theirs or self._editing
        if self.compare_dialog is not None:
            self.compare_dialog.close()
            self.compare_dialog.deleteLater()
        self.compare_dialog = compare_dialog(
            observation_text(theirs), self._form_text(), theirs.id, self
        )
        self.compare_dialog.follow(self.banner)  # Keep mine / Take theirs from the dialog too
        self.compare_dialog.show()

    def on_keep_mine(self) -> None:
        """The next save replaces the new version: it becomes the base the save expects."""
        if self._theirs is not None:
            self._editing = self._theirs
        self._clear_conflict()

    def on_reload_theirs(self) -> None:
        """Drop the person's edits and fill the form with the new version."""
        if self._theirs is not None:
            self._load_form(self._theirs)

    def on_keep(self) -> None:
        """Keep editing a forgotten row (saving restores it) or a deleted one (text only)."""
        if self._conflict == FORGOTTEN and self._theirs is not None:
            self._editing = self._theirs
            self._restore_on_save = True
        elif self._conflict == DELETED:
            self._gone = True
        self._clear_conflict()

    def _clear_conflict(self) -> None:
        """Hide the banner and forget the other version (the person answered, or left)."""
        if self._conflict is not None:
            self.edit_error.hide()  # it may say "choose in the banner first"
        self._conflict = None
        self._theirs = None
        self.banner.hide()

    def _form_text(self) -> str:
        values = self._form_values()
        return as_text(values["title"], values["type"], values["topic_key"], values["content"])

    def _validation_problem(self) -> str:
        """The first thing the plugin would refuse, in words; empty when the form is valid.

        Title and content are judged as the plugin will store them: a title of blanks, or
        one that is all ``<private>`` text, is as empty to the plugin as no title at all.
        """
        values = self._form_values()
        if not values["title"]:
            return translate(
                "ObservationDetail",
                "The title cannot be empty (blank space is dropped when it is stored).",
            )
        if not values["content"]:
            return translate(
                "ObservationDetail",
                "The content cannot be empty (blank space is dropped when it is stored).",
            )
        return ""

    def _form_values(self) -> dict[str, str]:
        """The form as the plugin would store it (trimmed, redacted, capped): comparing these
        with the row tells exactly which fields an edit changes."""
        return {
            "title": preview_title(self.edit_title.text()).stored,
            "type": self.edit_type.currentText(),
            "topic_key": self.stored_topic.stored(),
            # Untyped in (or still loading): the row's own, never rewritten by another field's
            # edit; typed in: with the row's line breaks where its lines are kept.
            "content": self._fill.stored_text(whole=self.stored.whole, original=self._base())
            if self._fill.typed_in() or self._editing is None
            else self._editing.content or "",
        }

    def _base(self) -> str:
        """The content the form was loaded with (its line breaks are kept)."""
        return (self._editing.content if self._editing is not None else None) or ""

    def _changes(self) -> dict[str, str]:
        """Only the fields the person changed, so the revision records exactly that."""
        original = self._editing
        assert original is not None
        wanted = self._form_values()
        before = {
            "title": original.title,
            "type": original.type,
            "topic_key": original.topic_key or "",
            "content": original.content or "",
        }
        return {key: value for key, value in wanted.items() if value != before[key]}


def metadata_rows(observation: Observation, now: int) -> list[tuple[str, str]]:
    """Every stored fact about the row: (name in the person's language, value as HTML)."""
    fill, ink = theme.colors().badge(observation.type)
    badge = (
        f'<span style="background:{fill}; color:{ink};">'
        f"&nbsp;{marked_html(observation.type)}&nbsp;</span>"
    )
    yes, no = translate("ObservationDetail", "yes"), translate("ObservationDetail", "no")
    rows = [
        (translate("ObservationDetail", "ID"), f"#{observation.id}"),
        (translate("ObservationDetail", "Type"), badge),
        (translate("ObservationDetail", "Pinned"), yes if observation.pinned else no),
        (
            translate("ObservationDetail", "Project"),
            marked_html(short_id(observation.project, _ID_KEEP)),
        ),
        (translate("ObservationDetail", "Scope"), marked_html(scope_label(observation.scope))),
        (translate("ObservationDetail", "Topic key"), marked_html(observation.topic_key or "—")),
        (
            translate("ObservationDetail", "Session"),
            marked_html(short_id(observation.session_id or "—", _ID_KEEP)),
        ),
        (translate("ObservationDetail", "Tool"), marked_html(observation.tool_name or "—")),
        (translate("ObservationDetail", "Revisions"), i18n.number(observation.revision_count)),
        (translate("ObservationDetail", "Duplicates"), i18n.number(observation.duplicate_count)),
        (translate("ObservationDetail", "Reads"), i18n.number(observation.access_count)),
        (translate("ObservationDetail", "Created"), dates.detailed(observation.created_at, now)),
        (translate("ObservationDetail", "Updated"), dates.detailed(observation.updated_at, now)),
        (
            translate("ObservationDetail", "Last seen"),
            dates.detailed(observation.last_seen_at, now),
        ),
        (
            translate("ObservationDetail", "Last read"),
            dates.detailed(observation.last_accessed_at, now),
        ),
    ]
    if observation.deleted_at is not None:
        forgotten = html.escape(dates.detailed(observation.deleted_at, now))
        rows.append((translate("ObservationDetail", "Forgotten"), f"<b>{forgotten}</b>"))
    if observation.problems:
        error = theme.colors().error_text
        unreadable = "<br>".join(html.escape(i18n.shown(p)) for p in observation.problems)
        rows.append(
            (
                translate("ObservationDetail", "Unreadable"),
                f'<span style="color:{error};">⚠ {unreadable}</span>',
            )
        )
    return rows


def whole_ids(observation: Observation) -> str:
    """The hover text of the facts: the ids the pane may show cut, in full."""
    return translate("ObservationDetail", "Project: {project}\nSession: {session}").format(
        project=reveal(observation.project), session=reveal(observation.session_id or "—")
    )


def metadata_html(observation: Observation) -> str:
    """Every stored fact about the row as a compact two-column table."""
    subdued = theme.colors().subdued
    cells = "".join(
        f'<tr><td style="color:{subdued}; padding-right:8px;">{html.escape(name)}</td>'
        f"<td>{value}</td></tr>"
        for name, value in metadata_rows(observation, now_ms())
    )
    return f"<table cellspacing=0 cellpadding=1>{cells}</table>"
