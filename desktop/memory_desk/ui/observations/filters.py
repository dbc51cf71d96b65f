"""The filter bar above the table: search box, type/project/scope/date choices, two switches.

It only collects what the person wants to see and says when that changed; the page turns
it into a :class:`~memory_desk.ui.observations.query.Query`. The search box is debounced
with a timer the bar owns: a trailing delay so a query runs when typing pauses (as long as the
database takes to answer, at most ``SEARCH_DELAY_MS``: :meth:`FilterBar.note_answer_time`), plus a
maximum latency so results still follow a person who types without pausing.

The search box also steers the table, so a person can search and triage without leaving
it: Up/Down/Page Up/Page Down are handed to the table (``navigate_requested``), Escape
clears the search. Each filter shows its state at a glance: its text says what it holds
("Types: 2") and it is bold while it hides something.

The date range (:mod:`.date_range`) and the saved searches (:mod:`.saved_searches`) are
children of their own; the bar's whole state is one :class:`FilterState`.

Type names and project names are the agents' data: shown as stored, never translated; the
words around them ("All projects", "Project", "Personal") are the window's.

Signals:
    search_changed(): the search text settled (debounced)
    filters_changed(): a type, project, scope or switch changed (immediately)
    navigate_requested(int, Qt.KeyboardModifier): a moving key pressed in the search box
"""

from __future__ import annotations

import statistics
from collections import deque
from datetime import date, datetime, time, timedelta

from PySide6.QtCore import QElapsedTimer, QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QKeyEvent, QMouseEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QLineEdit,
    QMenu,
    QToolButton,
    QWidget,
)

from memory_desk.core.alisio import OBSERVATION_TYPES, SCOPES
from memory_desk.ui import dates, i18n
from memory_desk.ui.elide import elide_middle
from memory_desk.ui.i18n import translate
from memory_desk.ui.observations.date_range import DateChoice, DateRangeFilter
from memory_desk.ui.observations.saved_searches import FilterState, SavedSearches
from memory_desk.ui.widgets.display import scope_label
from memory_desk.ui.widgets.folding_row import FoldingRow

# Keys the search box has no use for and hands to the table: they move its current row.
_TABLE_KEYS = frozenset({Qt.Key.Key_Up, Qt.Key.Key_Down, Qt.Key.Key_PageUp, Qt.Key.Key_PageDown})
# The project filter grows with its names up to about this many characters; a longer name
# is cut in the middle (``fieldnotes…a786d7ce``, whole on hover), so it never widens the page.
_PROJECT_CHARS = 32
SEARCH_ROOM_PX = 240  # the search field's room to type: narrower, the filters go below it


class StayOpenMenu(QMenu):
    """A menu whose checkable entries toggle without closing it, so several types can be
    ticked in one visit (a plain QMenu closes on every click). Other entries close it."""

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt override)
        action = self.actionAt(event.position().toPoint())
        if action is not None and action.isCheckable() and action.isEnabled():
            action.trigger()
            return
        super().mouseReleaseEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt override)
        action = self.activeAction()
        toggles = event.key() in (Qt.Key.Key_Space, Qt.Key.Key_Return, Qt.Key.Key_Enter)
        if toggles and action is not None and action.isCheckable() and action.isEnabled():
            action.trigger()
            return
        super().keyPressEvent(event)


class FilterBar(QWidget):
    """Search text and filters (see the module docstring).

    Signals:
        search_changed(): the search text settled (debounced)
        filters_changed(): a type, project, scope or switch changed
        navigate_requested(int, Qt.KeyboardModifier): a moving key pressed in the search box
    """

    search_changed = Signal()
    filters_changed = Signal()
    navigate_requested = Signal(int, Qt.KeyboardModifier)

    # The pause after a keystroke before searching follows how soon the database answers
    # (the median of the last few answers), never more than SEARCH_DELAY_MS: on a database that
    # answers at once a fixed pause would be most of the wait. Typing faster than the
    # answers only interrupts the search in flight (QueryRunner). SEARCH_MAX_LATENCY_MS: a
    # person typing on and on still sees rows at least that often.
    SEARCH_DELAY_MS = 150
    SEARCH_MAX_LATENCY_MS = 500
    ANSWERS_REMEMBERED = 5

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.search = self._build_search()
        self.type_button = self._build_type_button()
        self.project = self._build_project()
        self._projects: list[str | None] = [None]  # Python lists (None = all): no QVariant
        self.scope = QComboBox(self)
        self.scope.setObjectName("scopeFilter")
        self.scope.setAccessibleName(translate("FilterBar", "Scope filter"))
        tip = translate(
            "FilterBar", "Project observations, personal ones (seen from every project), or both"
        )
        self.scope.setToolTip(tip)
        self.scope.setAccessibleDescription(tip)
        self._scopes: list[str | None] = [None, *SCOPES]
        self.scope.addItem(translate("FilterBar", "All scopes"))
        for scope in SCOPES:
            self.scope.addItem(scope_label(scope))
        self.pinned_only = QCheckBox(translate("FilterBar", "Pinned only"), self)
        self.pinned_only.setObjectName("pinnedOnlyFilter")
        tip = translate(
            "FilterBar", "Show only pinned observations (always in the agent's context)"
        )
        self.pinned_only.setToolTip(tip)
        self.pinned_only.setAccessibleDescription(tip)
        self.show_forgotten = QCheckBox(translate("FilterBar", "Show forgotten"), self)
        self.show_forgotten.setObjectName("showForgottenFilter")
        tip = translate("FilterBar", "Also show forgotten observations, in grey, to restore them")
        self.show_forgotten.setToolTip(tip)
        self.show_forgotten.setAccessibleDescription(tip)
        # A day chosen on the Overview's chart: shown only while it filters, one click clears.
        self._saved_on: date | None = None
        self.saved_on = QToolButton(self)
        self.saved_on.setObjectName("savedOnFilter")
        self.saved_on.setAccessibleName(translate("FilterBar", "Day filter"))
        self.saved_on.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.saved_on.clicked.connect(lambda: self.set_saved_on(None))
        self.saved_on.hide()
        self.date_filter = DateRangeFilter(self)
        self.saved_searches = SavedSearches(self.search, self.state)
        self.saved_searches.chosen.connect(self.set_state)

        filters = (self.type_button, self.project, self.scope, self.date_filter)
        more = (self.pinned_only, self.show_forgotten, self.saved_on)
        self.rows = FoldingRow(self, self.search, (*filters, *more), room=SEARCH_ROOM_PX)

        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(self.SEARCH_DELAY_MS)
        self._timer.timeout.connect(self._settle_search)
        self._answer_ms: deque[float] = deque(maxlen=self.ANSWERS_REMEMBERED)
        self._since_first_edit = QElapsedTimer()
        self.search.textChanged.connect(self.on_search_edited)
        self.project.currentIndexChanged.connect(self.filters_changed)
        self.scope.currentIndexChanged.connect(self.filters_changed)
        self.pinned_only.toggled.connect(self.filters_changed)
        self.show_forgotten.toggled.connect(self.filters_changed)
        self.date_filter.changed.connect(self.filters_changed)
        self.filters_changed.connect(self.show_state)
        self.show_state()

    def _build_search(self) -> QLineEdit:
        search = QLineEdit(self)
        search.setObjectName("observationsSearch")
        search.setClearButtonEnabled(True)
        search.setPlaceholderText(
            translate("FilterBar", "Search titles, content and topic keys  (Ctrl+F)")
        )
        search.setAccessibleName(translate("FilterBar", "Search observations"))
        tip = translate(
            "FilterBar",
            "Every word must match, anywhere in the title, content or topic key; the text is"
            " taken literally. Up/Down move in the table, Return reads the observation, Esc"
            " clears the search",
        )
        search.setToolTip(tip)
        search.setAccessibleDescription(tip)
        search.installEventFilter(self)
        return search

    def _build_project(self) -> QComboBox:
        project = QComboBox(self)
        project.setObjectName("projectFilter")
        project.setAccessibleName(translate("FilterBar", "Project filter"))
        tip = translate("FilterBar", "Show one project only")
        project.setToolTip(tip)
        project.setAccessibleDescription(tip)
        project.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        project.setMinimumContentsLength(12)
        project.addItem(translate("FilterBar", "All projects"))
        return project

    def _project_text_width(self) -> int:
        """The widest project name shown whole, in pixels."""
        return self.project.fontMetrics().averageCharWidth() * _PROJECT_CHARS

    def _build_type_button(self) -> QToolButton:
        button = QToolButton(self)
        button.setObjectName("typeFilter")
        button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = StayOpenMenu(button)
        menu.setObjectName("typeFilterMenu")
        menu.setAccessibleName(translate("FilterBar", "Types to show"))
        self._all_types = menu.addAction(translate("FilterBar", "All types"))
        self._all_types.setObjectName("typeFilterAll")
        self._all_types.triggered.connect(self.clear_types)
        menu.addSeparator()
        self.type_actions: dict[str, QAction] = {}
        for name in OBSERVATION_TYPES:
            action = menu.addAction(name)  # a type's name is data: shown as the agents write it
            action.setObjectName(f"typeFilter_{name}")
            i18n.mark_data(action)
            action.setCheckable(True)
            action.toggled.connect(self._on_type_toggled)
            self.type_actions[name] = action
        button.setMenu(menu)
        return button

    # -- what the page reads ----------------------------------------------------------------

    def text(self) -> str:
        return self.search.text().strip()

    def types(self) -> tuple[str, ...]:
        return tuple(name for name, action in self.type_actions.items() if action.isChecked())

    def project_name(self) -> str | None:
        return self._projects[max(0, self.project.currentIndex())]

    def scope_name(self) -> str | None:
        return self._scopes[max(0, self.scope.currentIndex())]

    def state(self) -> FilterState:
        """Everything the bar asks, as one value (what a saved search keeps)."""
        return FilterState(
            self.text(),
            self.types(),
            self.project_name(),
            self.scope_name(),
            self.pinned_only.isChecked(),
            self.show_forgotten.isChecked(),
            self.date_filter.choice(),
        )

    def set_state(self, state: FilterState) -> None:
        """Ask ``state`` again: every field at once, then one ``filters_changed``."""
        self.clear()
        if state.project not in self._projects:  # a project with no rows (yet) stays chosen
            self._fill_projects([*self._projects, state.project])
        scope = self._scopes.index(state.scope) if state.scope in self._scopes else 0
        quiet = (self.search, self.project, self.scope, self.pinned_only, self.show_forgotten)
        quiet += tuple(self.type_actions.values())
        for widget in quiet:
            widget.blockSignals(True)
        self.search.setText(state.text)
        self.project.setCurrentIndex(self._projects.index(state.project))
        self.scope.setCurrentIndex(scope)
        self.pinned_only.setChecked(state.pinned_only)
        self.show_forgotten.setChecked(state.show_forgotten)
        for name, action in self.type_actions.items():
            action.setChecked(name in state.types)
        for widget in quiet:
            widget.blockSignals(False)
        self.date_filter.set_choice(state.date, quietly=True)
        self.filters_changed.emit()

    def set_projects(self, projects: list[str]) -> None:
        """Offer these projects, keeping the chosen one (even if it has no rows any more)."""
        chosen = self.project_name()
        names: list[str | None] = [None, *projects]
        if chosen not in names:
            names.append(chosen)
        if names == self._projects:
            return
        self._fill_projects(names)
        self.project.setCurrentIndex(names.index(chosen))

    def reset_project(self) -> None:
        """A new database has other projects: start from all of them."""
        self._fill_projects([None])

    def _fill_projects(self, names: list[str | None]) -> None:
        self.project.blockSignals(True)
        self.project.clear()
        for name in names:
            if name is None:
                self.project.addItem(translate("FilterBar", "All projects"))
            else:
                metrics = self.project.fontMetrics()
                self.project.addItem(elide_middle(name, metrics, self._project_text_width()))
                # the whole name on hover, however short the box shows it
                self.project.setItemData(
                    self.project.count() - 1, name, Qt.ItemDataRole.ToolTipRole
                )
        self._projects = names
        self.project.blockSignals(False)
        self.show_state()

    def saved_on_span(self) -> tuple[int, int] | None:
        """The chosen day as milliseconds from its local midnight to the next one (a day
        of 23 or 25 hours when the clocks change), or None."""
        if self._saved_on is None:
            return None
        start = datetime.combine(self._saved_on, time.min).astimezone()
        end = datetime.combine(self._saved_on + timedelta(days=1), time.min).astimezone()
        return dates.ms_from_datetime(start), dates.ms_from_datetime(end)

    def set_saved_on(self, day: date | None, *, quietly: bool = False) -> None:
        """Show only what was saved on ``day`` (None: any day); ``quietly`` runs no query."""
        self._saved_on = day
        if day is None:
            self.saved_on.hide()
        else:
            shown = dates.short_date(
                dates.ms_from_datetime(datetime.combine(day, time(12)).astimezone())
            )
            self.saved_on.setText(translate("FilterBar", "Saved on {day}  ✕").format(day=shown))
            tip = translate(
                "FilterBar", "Showing only what was saved on {day}; click to show every day"
            ).format(day=shown)
            self.saved_on.setToolTip(tip)
            self.saved_on.setAccessibleDescription(tip)
            font = self.saved_on.font()
            font.setBold(True)
            self.saved_on.setFont(font)
            self.saved_on.show()
        if not quietly:
            self.filters_changed.emit()

    def clear(self) -> None:
        """Show everything live again: no text, every type, project and scope, any date, not
        only pinned.

        Signals stay quiet while the fields change, so the caller runs one query after it.
        """
        self._timer.stop()
        widgets = (self.search, self.project, self.scope, self.pinned_only, self.show_forgotten)
        for widget in widgets:
            widget.blockSignals(True)
        self.search.clear()
        self.project.setCurrentIndex(0)
        self.scope.setCurrentIndex(0)
        self.pinned_only.setChecked(False)
        self.set_saved_on(None, quietly=True)
        self.date_filter.set_choice(DateChoice(), quietly=True)
        for widget in widgets:
            widget.blockSignals(False)
        for action in self.type_actions.values():
            action.blockSignals(True)
            action.setChecked(False)
            action.blockSignals(False)
        self.show_state()

    def show_state(self) -> None:
        """Say what each filter holds: the type button names its choice, and a filter that
        hides something is bold, so a short list is never a mystery."""
        chosen = self.types()
        if not chosen:
            label = translate("FilterBar", "All types")
            tip = translate("FilterBar", "Show only some types (several can be chosen)")
        else:
            if len(chosen) == 1:
                label = translate("FilterBar", "Type: {type}").format(type=chosen[0])
            else:
                label = translate("FilterBar", "Types: {n}").format(n=i18n.number(len(chosen)))
            tip = translate("FilterBar", "Showing only: {types} (several can be chosen)").format(
                types=", ".join(chosen)
            )
        self.type_button.setText(label)
        self.type_button.setToolTip(tip)
        self.type_button.setAccessibleDescription(tip)
        for widget, narrowed in (
            (self.type_button, bool(chosen)),
            (self.project, self.project_name() is not None),
            (self.scope, self.scope_name() is not None),
            (self.pinned_only, self.pinned_only.isChecked()),
            (self.show_forgotten, self.show_forgotten.isChecked()),
        ):
            font = widget.font()
            if font.bold() != narrowed:
                font.setBold(narrowed)
                widget.setFont(font)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt override)
        """The search box's keys that steer the table, and Escape that clears it."""
        if watched is self.search and event.type() == QEvent.Type.KeyPress:
            key = event.key()
            if key in _TABLE_KEYS:
                self.navigate_requested.emit(key, event.modifiers())
                return True
            if key == Qt.Key.Key_Escape and self.search.text():
                self.search.clear()
                self._settle_search()  # no need to wait: clearing is one decision
                return True
        return super().eventFilter(watched, event)

    def note_answer_time(self, ms: float) -> None:
        """How long the last search took to show rows: the pause after a keystroke follows."""
        self._answer_ms.append(max(0.0, ms))
        delay = min(float(self.SEARCH_DELAY_MS), statistics.median(self._answer_ms))
        self._timer.setInterval(round(delay))

    def search_delay(self) -> int:
        """The pause (ms) after a keystroke before searching, as it is now."""
        return self._timer.interval()

    def has_pending_search(self) -> bool:
        return self._timer.isActive()

    def stop(self) -> None:
        self._timer.stop()

    # -- reacting ---------------------------------------------------------------------------

    def on_search_edited(self) -> None:
        if not self._timer.isActive():
            self._since_first_edit.start()
        if self._since_first_edit.elapsed() >= self.SEARCH_MAX_LATENCY_MS:
            self._settle_search()
            return
        self._timer.start()

    def _settle_search(self) -> None:
        self._timer.stop()
        self.search_changed.emit()

    def clear_types(self) -> None:
        for action in self.type_actions.values():
            action.blockSignals(True)
            action.setChecked(False)
            action.blockSignals(False)
        self._on_type_toggled()

    def _on_type_toggled(self) -> None:
        self.filters_changed.emit()  # show_state follows
