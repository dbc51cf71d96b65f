"""Reading on the observations page: the detail pane follows the current row, and the keys
move between the search box, the table and the detail.

A detail pane in read mode follows its row quietly on a live reload (with a passing notice
when another program rewrote the text being read); an edit form whose row changed
underneath keeps the person's text behind a conflict banner (:mod:`.detail`). From the
search box, Up/Down move in the table; Return (there or in the table) moves to the detail to
read it, and Esc in the detail goes back to the table.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QApplication

from memory_desk.core import StoreError
from memory_desk.ui.i18n import translate
from memory_desk.ui.observations.busy import Later, report_unless_busy
from memory_desk.ui.observations.detail import RELOADED, text_changed
from memory_desk.ui.observations.saved_searches import SAVED_SEARCHES_KEYS


class Reading(QObject):
    """The detail pane and the keys that move between the page's parts (see the module
    docstring); the page installs it as the table's and the detail text's event filter."""

    def __init__(self, page) -> None:  # page: its ObservationsPage
        super().__init__(page)
        self._page = page
        self._show_again = Later(self.show_current, self)  # the agent's lock refused a read

    def stop(self) -> None:
        self._show_again.stop()

    def chat_project(self) -> str | None:
        """The project a chat would search from: the filtered one, else the current row's."""
        chosen = self._page.filters.project_name()
        if chosen is not None:
            return chosen
        shown = self._page.detail.shown
        return shown.project if shown is not None else None

    def show_current(self, *, announce: bool = False) -> None:
        """Show the current row in full; the detail pane ignores an unchanged observation.

        With ``announce`` (live reload), a row whose text another program rewrote while the
        person was reading it says so in a passing notice.
        """
        page, detail = self._page, self._page.detail
        current = page.selection.current_id()
        if current is None or page.store is None:
            detail.show_observation(None)
            return
        try:
            observation = page.store.get(current)
        except StoreError as exc:
            report_unless_busy(page.error_raised.emit, exc, self._show_again)
            return
        before = detail.shown
        detail.show_observation(observation)
        rewritten = (
            announce
            and observation is not None
            and before is not None
            and before.id == observation.id
            and text_changed(before, observation)
        )
        if rewritten and not detail.is_editing:
            page.info_raised.emit(
                translate(
                    "ObservationsPage",
                    "Observation #{id} was changed by another program; showing the new version",
                ).format(id=current)
            )

    def follow_edited_row(self) -> None:
        """Give the edit form its row as the database has it now (it may have changed)."""
        page = self._page
        edited = page.detail.editing_id
        if edited is None or page.store is None:
            return
        try:
            fresh = page.store.get(edited)
        except StoreError as exc:
            report_unless_busy(page.error_raised.emit, exc)
            return
        if page.detail.follow_edited(fresh) == RELOADED:
            page.info_raised.emit(
                translate(
                    "ObservationsPage",
                    "Observation #{id} was changed by another program; the form shows the new"
                    " version",
                ).format(id=edited)
            )

    def on_current_changed(self, *_indexes: object) -> None:
        self.show_current()
        self._page.action_table.update()

    def on_edit_finished(self) -> None:
        """The form closed: when it had the focus (now on a hidden widget, or none), the
        table takes it back, where F2 opened the form."""
        page = self._page
        focus = QApplication.focusWidget()
        lost = focus is None or not focus.isVisible() or page.detail.isAncestorOf(focus)
        self.show_current()
        page.action_table.update()
        if lost and page.isVisible():
            page.table.setFocus()

    def focus_search(self) -> None:
        self._page.filters.search.setFocus()
        self._page.filters.search.selectAll()

    def open_detail(self) -> None:
        """Read the current row in the detail pane (its text takes the focus, so the arrows
        scroll it; Esc goes back to the table)."""
        detail = self._page.detail
        self._page.selection.make_a_row_current()
        if detail.is_editing:
            detail.start_edit()  # the form is open: Return goes on with it
        elif detail.shown is not None:
            detail.content_view.setFocus()

    def navigate_table(self, key: int, modifiers: Qt.KeyboardModifier) -> None:
        """Up/Down (and pages) typed in the search box move the table's current row, as if
        pressed in the table: the focus stays in the search box."""
        if self._page.model.rowCount() == 0:
            return
        QApplication.sendEvent(self._page.table, QKeyEvent(QEvent.Type.KeyPress, key, modifiers))
        self._page.selection.make_a_row_current()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt override)
        """Return in the table reads the row; Esc in the detail's text goes back to the table."""
        if event.type() == QEvent.Type.KeyPress:
            key = event.key()
            no_modifier = event.modifiers() in (
                Qt.KeyboardModifier.NoModifier,
                Qt.KeyboardModifier.KeypadModifier,
            )
            page = self._page
            if (
                watched is page.table
                and no_modifier
                and key in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
            ):
                self.open_detail()
                return True
            if watched is page.detail.content_view and key == Qt.Key.Key_Escape:
                page.table.setFocus()
                return True
        return super().eventFilter(watched, event)


def key_help() -> list[tuple[str, str]]:
    """Keys the page handles in its own widgets (not actions), for Help ▸ Keyboard shortcuts;
    kept beside the code that handles them."""
    return [
        (
            translate("ObservationsPage", "Up, Down, Page Up, Page Down"),
            translate("ObservationsPage", "Move in the table from the search box"),
        ),
        (
            translate("ObservationsPage", "Return"),
            translate(
                "ObservationsPage",
                "Read the current observation (from the search box or the table)",
            ),
        ),
        ("Esc", translate("ObservationsPage", "Clear the search (in the search box)")),
        (
            SAVED_SEARCHES_KEYS,
            translate("ObservationsPage", "Saved searches (in the search box)"),
        ),
        (
            "Esc",
            translate("ObservationsPage", "Go back to the table (in the observation's text)"),
        ),
    ]
