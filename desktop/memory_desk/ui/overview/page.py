"""The Overview page: what the agents remember, in counts and charts.

One look answers "how much, of what, where, and is anything odd": the totals (live, pinned,
forgotten), a chart of what was saved each day of the last 90 (a click or Enter on a day shows
that day's rows in the observations table), the live rows by type, project and scope, the
topics the agent rewrote most, the largest rows, and each open persona folder's entries, size
and problems. Everything is read by :mod:`memory_desk.core.observations.overview` off the main
thread, only while the page is in front (:class:`~memory_desk.ui.view_page.ViewPage`), and
reading changes nothing in the database.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QLocale, Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QLabel,
    QScrollArea,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from memory_desk.core.observations import ObservationStore
from memory_desk.core.observations.overview import (
    DAYS,
    FolderOverview,
    Overview,
    folder_overviews,
    overview,
)
from memory_desk.core.persona import PersonaFolder
from memory_desk.ui import i18n, theme
from memory_desk.ui.elide import project_names
from memory_desk.ui.i18n import number, plural, translate
from memory_desk.ui.overview.charts import DailyChart
from memory_desk.ui.overview.tables import (
    ID_ROLE,
    CountTable,
    OverviewTable,
    data_item,
    number_item,
)
from memory_desk.ui.sources.registry import folder_label
from memory_desk.ui.view_page import ViewPage
from memory_desk.ui.widgets.display import scope_label
from memory_desk.ui.workers.background import BackgroundCall

_Answer = tuple[Overview | None, tuple[FolderOverview, ...]]


class OverviewPage(ViewPage):
    """Counts by type, project, scope; saves per day; topics, largest rows; persona folders.

    Signals:
        day_requested(object): show the observations saved on this ``datetime.date``
        observation_requested(int): show this observation in the observations table
    """

    day_requested = Signal(object)
    observation_requested = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("overviewPage")
        self.store: ObservationStore | None = None
        self.folders: list[PersonaFolder] = []
        self.shown: Overview | None = None
        self.shown_folders: tuple[FolderOverview, ...] | None = None
        self._reader = BackgroundCall(self)
        self._reader.finished.connect(self._on_read)
        self._reader.failed.connect(self._on_failed)
        self._build()
        self._show_answer(None, None)

    # -- public calls ---------------------------------------------------------------------------

    def set_store(self, store: ObservationStore | None) -> None:
        """Show this database's figures (None: none); the last one's never show again."""
        if store is not self.store:
            self._reader.cancel()  # an answer about the old database must not arrive later
            self.store = store
            self._show_answer(None, self.shown_folders)
        self.refresh()

    def set_persona_folders(self, folders: list[PersonaFolder]) -> None:
        self.folders = list(folders)
        self.refresh()

    def load(self) -> None:
        """Read the figures and the folders' numbers off the main thread."""
        store, folders = self.store, list(self.folders)
        if self.shown is None:
            self._show_notice()

        def read() -> _Answer:
            figures = overview(store) if store is not None else None
            return figures, folder_overviews(folders)

        self._reader.submit(read)

    def is_loading(self) -> bool:
        """True while an answer to the latest reading is still to come."""
        return self._reader.is_busy()

    def shutdown(self) -> None:
        self._reader.stop()

    # -- building -------------------------------------------------------------------------------

    def _build(self) -> None:
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        self.scroll = QScrollArea(self)
        self.scroll.setObjectName("overviewScroll")
        self.scroll.setWidgetResizable(True)
        self.scroll.setFrameShape(QFrame.Shape.NoFrame)
        outer.addWidget(self.scroll)
        body = QWidget(self.scroll)
        body.setObjectName("overviewBody")
        self.scroll.setWidget(body)
        layout = QVBoxLayout(body)
        layout.setContentsMargins(10, 8, 10, 10)
        layout.setSpacing(6)

        self.notice = QLabel(body)
        self.notice.setObjectName("overviewNotice")
        self.notice.setWordWrap(True)
        theme.set_text_tone(self.notice, "subdued")
        layout.addWidget(self.notice)

        self.totals = QLabel(body)
        self.totals.setObjectName("overviewTotals")
        self.totals.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        font = self.totals.font()
        font.setPointSizeF(font.pointSizeF() * 1.15)
        font.setWeight(QFont.Weight.DemiBold)
        self.totals.setFont(font)
        layout.addWidget(self.totals)

        self.chart = DailyChart(body)
        self.chart.day_requested.connect(self.day_requested)
        self.chart_heading = self._heading(
            body, "overviewChartHeading", translate("OverviewPage", "Saved per day")
        )
        self.chart_hint = QLabel(
            translate(
                "OverviewPage",
                "Every observation saved on each of the last {days} days, forgotten ones"
                " too. Click a day, or press Enter on it, to see its observations.",
            ).format(days=number(DAYS)),
            body,
        )
        self.chart_hint.setObjectName("overviewChartHint")
        self.chart_hint.setWordWrap(True)
        theme.set_text_tone(self.chart_hint, "subdued")
        self.chart_heading.setBuddy(self.chart)
        layout.addWidget(self.chart_heading)
        layout.addWidget(self.chart_hint)
        layout.addWidget(self.chart)

        layout.addLayout(self._build_counts(body))
        self.topics, self.topics_empty = self._list_section(
            layout,
            body,
            translate("OverviewPage", "Most revised topics"),
            self._topics_table(body),
            translate("OverviewPage", "No topic has been revised yet."),
        )
        self.largest, self.largest_empty = self._list_section(
            layout,
            body,
            translate("OverviewPage", "Largest observations"),
            self._largest_table(body),
            translate("OverviewPage", "No live observations."),
        )
        self.persona_table, self.persona_empty = self._list_section(
            layout,
            body,
            translate("OverviewPage", "Persona folders"),
            self._persona_table(body),
            translate("OverviewPage", "No persona folder is open."),
        )
        layout.addStretch(1)
        self.db_sections = (
            self.totals,
            self.chart_heading,
            self.chart_hint,
            self.chart,
            *self._count_widgets,
            self.topics.parentWidget(),
            self.largest.parentWidget(),
        )

    @staticmethod
    def _heading(parent: QWidget, name: str, text: str) -> QLabel:
        label = QLabel(text, parent)
        label.setObjectName(name)
        font = label.font()
        font.setWeight(QFont.Weight.DemiBold)
        label.setFont(font)
        return label

    def _build_counts(self, body: QWidget) -> QGridLayout:
        """Live rows by type, project and scope, side by side."""
        grid = QGridLayout()
        grid.setHorizontalSpacing(12)
        live = translate("OverviewPage", "Live")
        self.type_counts = CountTable(
            "overviewTypeCounts",
            translate("OverviewPage", "Live observations by type"),
            [translate("OverviewPage", "Type"), live],
            coloured_by_type=True,
            parent=body,
        )
        self.project_counts = CountTable(
            "overviewProjectCounts",
            translate("OverviewPage", "Live observations by project"),
            [translate("OverviewPage", "Project"), live],
            parent=body,
        )
        self.scope_counts = CountTable(
            "overviewScopeCounts",
            translate("OverviewPage", "Live observations by scope"),
            [translate("OverviewPage", "Scope"), live],
            parent=body,
        )
        headings = (
            ("overviewTypeHeading", translate("OverviewPage", "By type"), self.type_counts),
            (
                "overviewProjectHeading",
                translate("OverviewPage", "By project"),
                self.project_counts,
            ),
            ("overviewScopeHeading", translate("OverviewPage", "By scope"), self.scope_counts),
        )
        self._count_widgets: list[QWidget] = []
        for column, (name, text, table) in enumerate(headings):
            heading = self._heading(body, name, text)
            heading.setBuddy(table)
            grid.addWidget(heading, 0, column)
            grid.addWidget(table, 1, column, Qt.AlignmentFlag.AlignTop)
            grid.setColumnStretch(column, 2 if table is self.project_counts else 1)
            self._count_widgets += [heading, table]
        return grid

    def _list_section(
        self,
        layout: QVBoxLayout,
        body: QWidget,
        title: str,
        table: OverviewTable,
        empty_text: str,
    ) -> tuple[OverviewTable, QLabel]:
        """A heading, a table and the sentence shown instead of it when it has no rows."""
        section = QWidget(body)
        section.setObjectName(table.objectName() + "Section")
        inner = QVBoxLayout(section)
        inner.setContentsMargins(0, 8, 0, 0)
        heading = self._heading(section, table.objectName() + "Heading", title)
        heading.setBuddy(table)
        table.setParent(section)
        empty = QLabel(empty_text, section)
        empty.setObjectName(table.objectName() + "Empty")
        theme.set_text_tone(empty, "subdued")
        inner.addWidget(heading)
        inner.addWidget(table)
        inner.addWidget(empty)
        layout.addWidget(section)
        return table, empty

    def _topics_table(self, body: QWidget) -> OverviewTable:
        titles = [
            translate("OverviewPage", "Topic"),
            translate("OverviewPage", "Revisions"),
            translate("OverviewPage", "Scope"),
            translate("OverviewPage", "Project"),
            translate("OverviewPage", "Title"),
        ]
        title = translate("OverviewPage", "Most revised topics")
        return self._observations_table(body, "overviewTopics", title, titles, stretched=4)

    def _largest_table(self, body: QWidget) -> OverviewTable:
        titles = [
            translate("OverviewPage", "Title"),
            translate("OverviewPage", "Characters"),
            translate("OverviewPage", "Type"),
            translate("OverviewPage", "Project"),
        ]
        title = translate("OverviewPage", "Largest observations")
        return self._observations_table(body, "overviewLargest", title, titles, stretched=0)

    def _observations_table(
        self, body: QWidget, name: str, title: str, titles: list[str], *, stretched: int
    ) -> OverviewTable:
        """A table of observations: Enter or a double click shows the row's observation."""
        table = OverviewTable(name, title, titles, parent=body)
        table.setToolTip(translate("OverviewPage", "Enter or a double click shows the observation"))
        table.stretch(stretched)
        table.id_activated.connect(self.observation_requested)
        return table

    def _persona_table(self, body: QWidget) -> OverviewTable:
        titles = [
            translate("OverviewPage", "Folder"),
            translate("OverviewPage", "Entries"),
            translate("OverviewPage", "Size"),
            translate("OverviewPage", "Problems"),
        ]
        table = OverviewTable(
            "overviewPersonaFolders",
            translate("OverviewPage", "Persona folders"),
            titles,
            parent=body,
        )
        table.stretch(0)
        return table

    # -- showing --------------------------------------------------------------------------------

    def _on_read(self, _generation: int, answer: object) -> None:
        figures, folders = answer  # type: ignore[misc]
        if self.store is None:
            figures = None  # the database closed while it was read
        self._show_answer(figures, folders)
        self.status_changed.emit(self._status_text())

    def _on_failed(self, _generation: int, message: str) -> None:
        self._show_notice(message)
        self.error_raised.emit(message)

    def _show_answer(
        self, figures: Overview | None, folders: tuple[FolderOverview, ...] | None
    ) -> None:
        self.shown = figures
        self.shown_folders = folders
        if figures is not None:
            self._show_figures(figures)
        for widget in self.db_sections:
            widget.setVisible(figures is not None)
        self._show_folders(folders or ())
        self.persona_table.parentWidget().setVisible(folders is not None)
        self._show_notice()

    def _show_notice(self, problem: str | None = None) -> None:
        if problem:
            text = problem
        elif self.store is None:
            text = translate(
                "OverviewPage", "Open an Alisio database to see what its agent remembers."
            )
        elif self.shown is None:
            text = translate("OverviewPage", "Reading the overview…")
        else:
            text = ""
        self.notice.setText(text)
        self.notice.setVisible(bool(text))

    def _show_figures(self, figures: Overview) -> None:
        self.totals.setText(_totals_text(figures))
        self.chart.set_days(figures.days, figures.day_types)
        self.type_counts.set_counts(figures.by_type, [kind for kind, _ in figures.by_type])
        self.project_counts.set_counts(
            figures.by_project, project_names([p for p, _ in figures.by_project])
        )
        self.scope_counts.set_counts(
            figures.by_scope, [scope_label(s) for s, _ in figures.by_scope]
        )
        _fill(
            self.topics,
            self.topics_empty,
            [
                [
                    _with_id(data_item(t.topic_key), t.id),
                    number_item(t.revision_count),
                    data_item(scope_label(t.scope)),
                    data_item(t.project),
                    data_item(t.title),
                ]
                for t in figures.topics
            ],
        )
        _fill(
            self.largest,
            self.largest_empty,
            [
                [
                    _with_id(data_item(o.title), o.id),
                    number_item(o.length),
                    data_item(o.type),
                    data_item(o.project),
                ]
                for o in figures.largest
            ],
        )

    def _show_folders(self, folders: Sequence[FolderOverview]) -> None:
        _fill(self.persona_table, self.persona_empty, [_folder_row(f) for f in folders])

    def _status_text(self) -> str:
        if self.shown is None:
            return ""
        saved = sum(day.total for day in self.shown.days)
        return translate("OverviewPage", "{live} · {saved} in the last {days} days").format(
            live=plural(
                self.shown.live,
                translate("OverviewPage", "{n} live observation"),
                translate("OverviewPage", "{n} live observations"),
            ),
            saved=translate("OverviewPage", "{n} saved").format(n=number(saved)),
            days=number(len(self.shown.days)),
        )


def _totals_text(figures: Overview) -> str:
    """``1,234 live observations · 12 pinned · 56 forgotten``: each a whole phrase."""
    live = plural(
        figures.live,
        translate("OverviewPage", "{n} live observation"),
        translate("OverviewPage", "{n} live observations"),
    )
    pinned = translate("OverviewPage", "{n} pinned").format(n=number(figures.pinned))
    forgotten = translate("OverviewPage", "{n} forgotten").format(n=number(figures.forgotten))
    return translate("OverviewPage", "{live} · {pinned} · {forgotten}").format(
        live=live, pinned=pinned, forgotten=forgotten
    )


def _with_id(item: QTableWidgetItem, observation_id: int) -> QTableWidgetItem:
    item.setData(ID_ROLE, observation_id)
    return item


def _fill(table: OverviewTable, empty: QLabel, rows: list[list[QTableWidgetItem]]) -> None:
    table.set_rows(rows)
    table.setVisible(bool(rows))
    empty.setVisible(not rows)


def _folder_row(folder: FolderOverview) -> list[QTableWidgetItem]:
    name = data_item(folder_label(folder.path), tip=str(folder.path))
    if folder.error is not None:
        problem = i18n.shown(folder.error)
        return [name, data_item("—"), data_item("—"), data_item(problem)]
    size = i18n.locale().formattedDataSize(
        folder.bytes, 1, QLocale.DataSizeFormat.DataSizeTraditionalFormat
    )
    problems = number_item(folder.problems)
    problems.setToolTip(
        translate(
            "OverviewPage",
            "{entries} with a problem; {folder} in the folder itself (see the Persona page)",
        ).format(
            entries=number(folder.entries_with_problems), folder=number(folder.folder_problems)
        )
    )
    return [name, number_item(folder.entries), number_item(folder.bytes, size), problems]
