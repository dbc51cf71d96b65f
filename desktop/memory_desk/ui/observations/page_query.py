"""The observations page's question and its answers: the query the filter bar and the header
describe, run on a worker (:mod:`.query`), its answer applied to the table, then the counts.

A new question resets the table (keeping the current and selected rows that are still
there); a re-run of the same question (a write, or the agent's commit reaching the live
reload) is applied as a difference, and rows that arrived are marked for a few seconds.
What is not the rows (the counts' query, the detail pane, the actions) follows a live
refresh once the table painted its rows, in a turn of the event loop of its own
(:class:`LiveFollowUp`). The counts and projects come last, from their own thread.

A store's first answer selects its first row when nothing is selected, and only then starts
the check of its search index (:mod:`.index_health`), so the check never competes with the
first rows for the disk and the cores.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import Flag, auto

from PySide6.QtCore import QObject, Qt, QTimer

from memory_desk.core.observations import ObservationStore
from memory_desk.core.observations.listing import Summary
from memory_desk.core.observations.search import search_words
from memory_desk.ui import i18n
from memory_desk.ui.i18n import translate
from memory_desk.ui.observations.index_health import IndexHealth, checks_on_open
from memory_desk.ui.observations.model import SORT_KEY_BY_COLUMN, Column
from memory_desk.ui.observations.query import Query, QueryResult, QueryRunner
from memory_desk.ui.workers.background import BackgroundCall

# A live refresh's follow-up runs this long after the table painted the new rows (a timer:
# the event loop turns in between), or at most this long after the rows were applied when
# nothing was painted.
LIVE_FINISH_AFTER_PAINT_MS = 1
LIVE_FINISH_AT_MOST_MS = 40
# The selected rows kept fresh after a refresh, beyond those on screen.
_FRESH_SELECTED = 200


class FirstAnswer(Flag):
    """What waits for a just-opened store's first answer."""

    NOTHING = 0
    SELECT_FIRST_ROW = auto()  # nothing selected yet: the first row becomes current
    CHECK_INDEX = auto()  # the search index's check starts once the first rows are shown


@dataclass
class Asking:
    """The question the runner is answering."""

    new_query: bool  # its answer replaces the table's rows, rather than patching them
    at: float | None  # when it was asked; None once the search box knows how soon rows came


class LiveFollowUp(QObject):
    """A live refresh's follow-up, run once the table painted its rows (or soon anyway)."""

    def __init__(self, parent: QObject) -> None:
        super().__init__(parent)
        self._call: Callable[[], None] | None = None
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self.run_now)

    def later(self, call: Callable[[], None]) -> None:
        self._call = call
        self._timer.start(LIVE_FINISH_AT_MOST_MS)

    def on_painted(self) -> None:
        """The table painted: the follow-up runs at the loop's next turn."""
        if self._call is not None:
            self._timer.start(LIVE_FINISH_AFTER_PAINT_MS)

    def run_now(self) -> None:
        """Run the waiting follow-up now (if there is one)."""
        self._timer.stop()
        call, self._call = self._call, None
        if call is not None:
            call()

    def cancel(self) -> None:
        self._timer.stop()
        self._call = None

    def is_pending(self) -> bool:
        return self._call is not None


class QueryFlow(QObject):
    """Asks the page's question and applies its answers to the page (the ObservationsPage).

    Its ``runner`` answers the rows; its ``summary`` reads the counts and projects after them.
    """

    def __init__(self, page, index_health: IndexHealth) -> None:  # page: its ObservationsPage
        super().__init__(page)
        self._page = page
        self._index_health = index_health
        self.query = Query()
        self.projects: list[str] = []  # with the last answer: the agent search offers them
        self.showing = 0  # rows in the last answer
        self._asking: Asking | None = None
        self._first_answer = FirstAnswer.NOTHING
        self.follow_up = LiveFollowUp(self)
        self.runner = QueryRunner(self)
        self.runner.finished.connect(self._on_results)
        self.runner.first.connect(self._on_first_rows)
        self.runner.failed.connect(self._on_query_failed)
        self.summary = BackgroundCall(self)
        self.summary.finished.connect(self._on_summary)
        self.summary.failed.connect(self._on_summary_failed)

    # -- asking ---------------------------------------------------------------------------------

    def opened(self, store: ObservationStore | None) -> None:
        """Another store (or none): what waited for the last one's answers is dropped."""
        self.follow_up.cancel()
        self.summary.cancel()  # the last store's counts (or its failure) are nobody's news now
        self.projects = []
        self._first_answer = FirstAnswer.NOTHING
        if store is not None:
            # The full check reads the whole file: it starts once the first rows are shown;
            # a file of gigabytes is checked only when the person asks.
            self._first_answer = FirstAnswer.SELECT_FIRST_ROW
            if checks_on_open(store):
                self._first_answer |= FirstAnswer.CHECK_INDEX

    def current_query(self) -> Query:
        page = self._page
        header = page.table.horizontalHeader()
        section = header.sortIndicatorSection()
        sort = SORT_KEY_BY_COLUMN.get(Column(section)) if 0 <= section < len(Column) else None
        filters = page.filters
        return Query(
            text=filters.text(),
            types=filters.types(),
            project=filters.project_name(),
            scope=filters.scope_name(),
            include_forgotten=filters.show_forgotten.isChecked(),
            pinned_only=filters.pinned_only.isChecked(),
            created_between=filters.saved_on_span(),
            date_range=filters.date_filter.choice().to_range(),
            sort=sort,
            # Without a sort column the store ranks (with text) or shows newest first.
            descending=sort is None or header.sortIndicatorOrder() == Qt.SortOrder.DescendingOrder,
        )

    def on_query_changed(self) -> None:
        if self.current_query() != self.query and self._page.store is not None:
            self.run(reset=True)

    def on_sort_changed(self, _section: int, _order: Qt.SortOrder) -> None:
        self.on_query_changed()

    def run(self, *, reset: bool) -> None:
        # A refresh that overtakes an unanswered new query must still reset when it lands.
        new_query = reset or (self._asking is not None and self._asking.new_query)
        if reset:
            self.query = self.current_query()
        store = self._page.store
        assert store is not None
        # A re-run gets the table's ids, so the worker plans the row changes from them.
        previous = None if new_query else self._page.model.snapshot()
        self._asking = Asking(new_query=new_query, at=time.perf_counter())
        self.runner.submit(store, self.query, previous=previous)

    def is_busy(self) -> bool:
        """An answer, its follow-up or its counts are still to come."""
        return self.runner.is_busy() or self.follow_up.is_pending() or self.summary.is_busy()

    def waits_to_check_index(self) -> bool:
        return FirstAnswer.CHECK_INDEX in self._first_answer

    def stop(self) -> None:
        self.follow_up.cancel()
        self.runner.stop()
        self.summary.stop()

    # -- answers --------------------------------------------------------------------------------

    def _note_answer_time(self) -> None:
        """Tell the search box how soon rows come back: its pause after a keystroke follows
        the database's speed (a pause alone must never exceed what the answer costs)."""
        if self._asking is not None and self._asking.at is not None:
            self._page.filters.note_answer_time((time.perf_counter() - self._asking.at) * 1000)
            self._asking.at = None

    def _on_first_rows(self, result: QueryResult) -> None:
        """The newest matches of a new question, shown while every match is read in order
        (the whole answer then takes their place, keeping the current and selected rows)."""
        page = self._page
        if page.store is None or self._asking is None or not self._asking.new_query:
            return
        self._note_answer_time()
        page.selection.show_new_ids(result.ids, result.index)
        self._mark_words(result.query)
        page.status_changed.emit(
            translate(
                "ObservationsPage", "Showing the {shown} newest matches · reading the rest…"
            ).format(shown=i18n.number(len(result.ids)))
        )
        page.reading.show_current()
        page.action_table.update()

    def _on_results(self, result: QueryResult) -> None:
        page = self._page
        if page.store is None:
            return
        self.follow_up.run_now()  # the last answer's follow-up, if its paint has not come yet
        new_query = self._asking is not None and self._asking.new_query
        if new_query:
            self._note_answer_time()  # how soon a new question shows rows
        self._asking = None
        arrived: list[int] = []
        if new_query:
            page.selection.show_new_ids(result.ids, result.index)
            self._mark_words(result.query)
            if FirstAnswer.SELECT_FIRST_ROW in self._first_answer:
                self._first_answer &= ~FirstAnswer.SELECT_FIRST_ROW
                page.selection.select_first_row()
        else:
            arrived = page.selection.apply_difference(result)
        model = page.model
        in_view = page.selection.ids_in_view(_FRESH_SELECTED)
        model.retain(in_view)
        model.reload(mark_revised=not new_query)
        model.ensure(in_view)  # rows that came into view: one small query, not a block
        if arrived:
            model.mark(arrived)
        page.selection.follow_answer()
        self.showing = len(result.ids)
        # A write of ours in flight may commit before its outcome is back: its own change is
        # neither "changed by another program" nor a conflict with the form it saves.
        writing = page.is_writing()
        if new_query:
            self._finish_results(new_query=True, writing=writing)
            return
        # A live refresh: the rows first; the rest waits for the table's next paint, so no
        # turn of the event loop holds both.
        self.follow_up.later(lambda: self._finish_results(new_query=False, writing=writing))

    def _mark_words(self, query: Query) -> None:
        """Mark the words of the question now answered in the table's titles and the detail
        (the search box may already hold the next one)."""
        words = search_words(query.text)
        page = self._page
        if page.table.title_marks.set_words(words):
            page.table.viewport().update()
        page.detail.set_highlight(words)

    def _check_index_now(self) -> None:
        """The first answer is in (or failed: a failing read may be the damage itself)."""
        if FirstAnswer.CHECK_INDEX in self._first_answer and self._page.store is not None:
            self._first_answer &= ~FirstAnswer.CHECK_INDEX
            self._index_health.check(self._page.store)

    def _finish_results(self, *, new_query: bool, writing: bool) -> None:
        """After an answer's rows: the index check, the counts (on their own thread), the
        detail pane and the actions."""
        page = self._page
        store = page.store
        if store is None:
            return
        self._check_index_now()
        # The counts and projects scan the table: they come after the rows, from their own
        # thread, and are read again only when the file changed.
        self.summary.submit(lambda: (store, store.summary()))
        page.reading.show_current(announce=not new_query and not writing)
        if not writing:
            page.reading.follow_edited_row()
        page.action_table.update()

    def _on_summary(self, _generation: int, answer: tuple[ObservationStore, Summary]) -> None:
        """The counts and projects beside the rows just shown: the answer is complete."""
        page = self._page
        store, summary = answer
        if store is not page.store:
            return
        totals = page.totals = summary.totals
        # One template (not one phrase per count): a language whose adjectives agree with the
        # number words it as "live: 3" instead.
        page.status_changed.emit(
            translate(
                "ObservationsPage",
                "Showing {shown} · {live} live · {forgotten} forgotten · {pinned} pinned",
            ).format(
                shown=i18n.number(self.showing),
                live=i18n.number(totals.live),
                forgotten=i18n.number(totals.forgotten),
                pinned=i18n.number(totals.pinned),
            )
        )
        self.projects = list(summary.projects)
        page.filters.set_projects(self.projects)
        if page.agent_search is not None:
            page.agent_search.set_projects(self.projects)
        page.refreshed.emit()

    def _on_summary_failed(self, _generation: int, message: str) -> None:
        self._page.error_raised.emit(message)
        self._page.refreshed.emit()

    def _on_query_failed(self, _generation: int, message: str) -> None:
        self._asking = None
        self._check_index_now()
        self._page.error_raised.emit(message)
        self._page.refreshed.emit()
