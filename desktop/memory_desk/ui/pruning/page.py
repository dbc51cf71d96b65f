"""The Pruning assistant: candidates to forget, in groups with their reason.

The page searches the shown source (a database or a persona folder) off the main thread
(:class:`~memory_desk.ui.progress_task.ProgressTask`, with a progress bar and Cancel), shows
the groups (:mod:`.tree`), and forgets the checked rows in one step with one undo:

- a database: one ``store.forget(ids)`` (one transaction, a soft delete, never a hard one)
  through a :class:`~memory_desk.ui.workers.write_runner.WriteRunner`, so the window never
  waits for the agent's write lock; it is the observations page's own ForgetCommand, whose
  undo is ``store.put_back_deleted_at`` (asking about a topic the agent re-used meanwhile);
- a persona folder: every checked entry goes to Memory Desk's trash, and back on undo
  (:mod:`.persona_command`).

As a :class:`~memory_desk.ui.view_page.ViewPage` it searches again only while in front (the
source changed, a write was made): the person's unchecks survive that. An answer about a
source the page no longer shows is dropped.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence

import shiboken6
from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QKeySequence, QUndoCommand, QUndoStack
from PySide6.QtWidgets import (
    QApplication,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from memory_desk.core import TopicConflict
from memory_desk.core.give_way import GiveWay, thread_cpu
from memory_desk.core.observations import ObservationStore
from memory_desk.core.persona import PersonaFolder
from memory_desk.core.progress import Progress
from memory_desk.core.pruning import (
    DEFAULT_AGE_DAYS,
    DEFAULT_LARGE_UNITS,
    DEFAULT_THRESHOLD,
    Findings,
    Settings,
    find_observation_candidates,
    find_persona_duplicates,
)
from memory_desk.ui import i18n
from memory_desk.ui.i18n import translate
from memory_desk.ui.progress_task import ProgressTask
from memory_desk.ui.pruning.compare import PruningCompare
from memory_desk.ui.pruning.persona_command import ForgetEntriesCommand
from memory_desk.ui.pruning.tree import CandidatesTree
from memory_desk.ui.undo_focus import has_own_undo
from memory_desk.ui.view_page import ViewPage
from memory_desk.ui.widgets.topic import TopicAction, ask_topic_choice
from memory_desk.ui.widgets.write_banner import WriteWaitBanner
from memory_desk.ui.workers.commands import ForgetCommand, step_back_later
from memory_desk.ui.workers.write_runner import Outcome, WriteRunner

Source = ObservationStore | PersonaFolder

REST_MS = 500  # between a search and the next one asked for by changes of the source
PROGRESS_EVERY_S = 0.1
QUIET_S = 0.1  # a search starts once the window's thread has been this long at rest


class PruningPage(ViewPage):
    """Finds what could go from the shown source, previews it, forgets it in one step.

    Signals:
        file_written(str): the page just removed or put back this persona file
    """

    file_written = Signal(str)

    def __init__(self, undo_stack: QUndoStack, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("pruningPage")
        self.undo_stack = undo_stack
        self.source: Source | None = None
        self.findings: Findings | None = None
        self._shown_source: Source | None = None  # the source the tree's rows belong to
        self._searching: Source | None = None
        # The source changed while a search ran: one more search follows it. Restarting
        # instead, an agent saving more often than a search lasts (a big database's search
        # is long) would keep the page from ever showing an answer.
        self._again = False
        # That search starts a rest after the last one: back to back, the searches of an agent
        # saving many times a second would keep a worker fighting the window for the
        # interpreter.
        self._rest = QTimer(self)
        self._rest.setSingleShot(True)
        self._rest.setInterval(REST_MS)
        self._rest.timeout.connect(self.refresh)
        self._progress_shown = 0.0  # when the progress bar was last moved (monotonic seconds)
        self._task = ProgressTask(self)
        self._task.progress.connect(self._on_progress)
        self._task.finished.connect(self._on_found)
        self._task.failed.connect(self._on_failed)
        self._task.cancelled.connect(self._on_cancelled)
        self._writes = WriteRunner(self)
        self._build()
        self._show_idle()

    # -- building ---------------------------------------------------------------------------

    def _build(self) -> None:
        self.source_label = QLabel(self)
        self.source_label.setObjectName("pruningSource")
        self.source_label.setTextFormat(Qt.TextFormat.PlainText)
        self.source_label.setWordWrap(True)  # a long path wraps instead of widening the page
        i18n.mark_data(self.source_label)
        self.age_days = self._spin(
            "pruningAgeDays", 1, 36_500, DEFAULT_AGE_DAYS, translate("PruningPage", " days")
        )
        self.age_days.setAccessibleName(translate("PruningPage", "Never opened and older than"))
        self.large_chars = self._spin(
            "pruningLargeChars",
            100,
            50_000,
            DEFAULT_LARGE_UNITS,
            translate("PruningPage", " characters"),
        )
        self.large_chars.setSingleStep(1000)
        self.similarity = self._spin(
            "pruningSimilarity",
            50,
            100,
            round(DEFAULT_THRESHOLD * 100),
            translate("PruningPage", " %"),
        )
        self.similarity.setSingleStep(5)
        self.similarity.setAccessibleName(translate("PruningPage", "Nearly the same text from"))
        self.similarity.setToolTip(
            translate(
                "PruningPage",
                "How many of two texts' words must be shared to call them nearly the same"
                " (lower finds more, and more that differ)",
            )
        )
        self.large_chars.setAccessibleName(translate("PruningPage", "Content larger than"))
        self.find_button = self._push("pruningFindButton", translate("PruningPage", "&Find"))
        self.find_button.setToolTip(translate("PruningPage", "Look for candidates again"))
        self.find_button.clicked.connect(self.load)
        self.cancel_button = self._push("pruningCancelButton", translate("PruningPage", "Cancel"))
        self.cancel_button.setToolTip(translate("PruningPage", "Stop looking; nothing is proposed"))
        self.cancel_button.clicked.connect(self._task.cancel)
        self.progress = QProgressBar(self)
        self.progress.setObjectName("pruningProgress")
        self.progress.setAccessibleName(translate("PruningPage", "Looking for candidates"))
        self.progress.setTextVisible(False)
        self.tree = CandidatesTree(self)
        self.setFocusProxy(self.tree)  # the page in front takes the keys at its groups
        self.tree.selection_changed.connect(self._update_buttons)
        self.compare = PruningCompare(self)
        self.compare.keep_requested.connect(self.tree.keep_only)
        self.tree.currentItemChanged.connect(lambda *_: self._show_compared())
        self.summary = QLabel(self)
        self.summary.setObjectName("pruningSummary")
        self.summary.setWordWrap(True)
        self.check_all = self._push("pruningCheckAll", translate("PruningPage", "Check all"))
        self.check_all.clicked.connect(lambda: self.tree.set_all(True))
        self.check_none = self._push("pruningCheckNone", translate("PruningPage", "Check none"))
        self.check_none.clicked.connect(lambda: self.tree.set_all(False))
        self.apply_button = self._push(
            "pruningApplyButton", translate("PruningPage", "&Forget checked")
        )
        self.apply_button.setToolTip(
            translate("PruningPage", "Forget every checked row in one step; undo brings them back")
        )
        self.apply_button.clicked.connect(self.apply)
        self.write_banner = WriteWaitBanner(self)
        self.write_banner.setObjectName("pruningWriteWaitBanner")
        self.write_banner.cancel_button.setObjectName("pruningCancelWriteButton")
        self.write_banner.label.setObjectName("pruningWriteWaitText")
        self.write_banner.cancel_requested.connect(self._writes.cancel)
        self._writes.waiting.connect(self.write_banner.show_waiting)
        self._writes.finished.connect(self.write_banner.clear)

        age_label = QLabel(translate("PruningPage", "Never opened, older than"), self)
        age_label.setBuddy(self.age_days)
        large_label = QLabel(translate("PruningPage", "Larger than"), self)
        large_label.setBuddy(self.large_chars)
        # Two short rows rather than one long one: the page must fit beside a wide sidebar.
        limits = QHBoxLayout()
        similar_label = QLabel(translate("PruningPage", "Nearly the same from"), self)
        similar_label.setBuddy(self.similarity)
        for widget in (age_label, self.age_days, large_label, self.large_chars):
            limits.addWidget(widget)
        limits.addStretch(1)
        controls = QHBoxLayout()
        for widget in (similar_label, self.similarity):
            controls.addWidget(widget)
        controls.addStretch(1)
        for widget in (self.find_button, self.progress, self.cancel_button):
            controls.addWidget(widget)
        actions = QHBoxLayout()
        actions.addWidget(self.summary, 1)
        for widget in (self.check_all, self.check_none, self.apply_button):
            actions.addWidget(widget)
        layout = QVBoxLayout(self)
        layout.addWidget(self.source_label)
        layout.addLayout(limits)
        layout.addLayout(controls)
        layout.addWidget(self.write_banner)
        split = QSplitter(Qt.Orientation.Vertical, self)
        split.setObjectName("pruningSplitter")
        split.setChildrenCollapsible(False)
        split.addWidget(self.tree)
        split.addWidget(self.compare)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        layout.addWidget(split, 1)
        layout.addLayout(actions)

    def _spin(self, name: str, low: int, high: int, value: int, suffix: str) -> QSpinBox:
        spin = QSpinBox(self)
        spin.setObjectName(name)
        spin.setRange(low, high)
        spin.setValue(value)
        spin.setSuffix(suffix)
        spin.setGroupSeparatorShown(True)
        return spin

    def _push(self, name: str, text: str) -> QPushButton:
        button = QPushButton(text, self)
        button.setObjectName(name)
        button.setAccessibleName(text.replace("&", ""))
        return button

    # -- the page contract --------------------------------------------------------------------

    def set_source(self, source: Source | None) -> None:
        """The database or persona folder to prune (None: nothing open)."""
        if source is self.source:
            self.refresh()
            return
        if self._writes.is_busy():
            self._writes.abandon()  # its store may be closed next: never write it half-way
        self.source = source
        self._task.cancel()
        self._rest.stop()
        self._searching = None
        self._again = False
        self._show(None)
        self._show_idle()
        self.refresh()

    def settings(self) -> Settings:
        return Settings(
            age_days=self.age_days.value(),
            large_units=self.large_chars.value(),
            threshold=self.similarity.value() / 100,
        )

    def refresh(self) -> None:
        """The source changed: search again, after the running search (and a rest) if there
        is one."""
        if self.is_current and self._task.is_busy() and self._searching is self.source:
            self._again = True
            return
        if self.is_current and self._rest.isActive():
            return  # the search after the rest will see this change too
        super().refresh()

    def load(self) -> None:
        """Search the shown source again, in the background."""
        source = self.source
        if source is None:
            self._show_idle()
            return
        settings = self.settings()
        self._searching = source
        find = (
            find_observation_candidates
            if isinstance(source, ObservationStore)
            else find_persona_duplicates
        )

        # The search waits for a quiet moment of the window's thread: started at once, it would
        # run beside what the person's own click set off there and fight it for the interpreter.
        give_way = GiveWay(thread_cpu(threading.get_ident()), quiet_s=QUIET_S, most_wait_s=1.0)

        def job(progress: Progress) -> tuple[Source, Findings]:
            give_way()
            return source, find(source, settings, progress)  # type: ignore[arg-type]

        self.progress.setRange(0, 0)
        self.progress.show()
        self.cancel_button.setEnabled(True)
        self.find_button.setEnabled(False)
        self.status_changed.emit(translate("PruningPage", "Looking for candidates…"))
        self._task.start(job)

    def is_busy(self) -> bool:
        """True while a search runs."""
        return self._task.is_busy()

    def shutdown(self) -> None:
        self._rest.stop()
        self._task.stop()
        self._writes.stop()
        self.compare.stop()

    # -- search answers -----------------------------------------------------------------------

    def _on_progress(self, done: int, total: int) -> None:
        now = time.monotonic()
        if now - self._progress_shown < PROGRESS_EVERY_S and done < total:
            return  # a progress bar repaints at once: a few moves a second are enough
        self._progress_shown = now
        self.progress.setRange(0, max(total, 0))
        self.progress.setValue(min(done, total) if total else 0)

    def _on_found(self, answer: object) -> None:
        source, findings = answer  # type: ignore[misc]
        self._searching = None
        self._finish_search()
        if source is self.source:  # else about a source the page no longer shows
            self._show(findings)
        self._search_again_if_changed()

    def _on_failed(self, message: str) -> None:
        self._searching = None
        self._finish_search()
        self.error_raised.emit(message)
        self._search_again_if_changed()

    def _search_again_if_changed(self) -> None:
        if self._again:
            self._again = False
            self._rest.start()

    def _on_cancelled(self) -> None:
        self._searching = None
        self._finish_search()
        self._show(None)
        self.status_changed.emit(translate("PruningPage", "Search cancelled: nothing is proposed"))

    def _finish_search(self) -> None:
        self.progress.setRange(0, 1)
        self.progress.setValue(0)
        self.progress.hide()
        self.cancel_button.setEnabled(False)
        self.find_button.setEnabled(self.source is not None)

    def _show(self, findings: Findings | None) -> None:
        same_source = self._shown_source is self.source and findings is not None
        self.findings = findings
        self._shown_source = self.source if findings is not None else None
        self.tree.show_findings(findings, keep_choices=same_source)
        if findings is not None:
            self.status_changed.emit(self._status_text(findings))
        self._update_buttons()
        self._show_compared()

    def _status_text(self, findings: Findings) -> str:
        groups = i18n.plural(
            len(findings.groups),
            translate("PruningPage", "{n} group"),
            translate("PruningPage", "{n} groups"),
        )
        if isinstance(self.source, PersonaFolder):
            looked = i18n.plural(
                findings.scanned,
                translate("PruningPage", "{n} entry looked at"),
                translate("PruningPage", "{n} entries looked at"),
            )
        else:
            looked = i18n.plural(
                findings.scanned,
                translate("PruningPage", "{n} live observation looked at"),
                translate("PruningPage", "{n} live observations looked at"),
            )
        return translate("PruningPage", "{groups} of candidates; {looked}").format(
            groups=groups, looked=looked
        )

    def _show_idle(self) -> None:
        source = self.source
        if source is None:
            self.source_label.setText("")
            self.status_changed.emit(translate("PruningPage", "Nothing open to prune"))
        else:
            self.source_label.setText(str(source.path))
        self._finish_search()
        self._update_buttons()

    def _show_compared(self) -> None:
        """The selected candidate beside the row its group keeps (compare.py)."""
        pair = self.tree.selected_pair() if self._shown_source is self.source else None
        if pair is None:
            self.compare.show_pair(None, None, None, None)
        else:
            self.compare.show_pair(self.source, *pair)

    def _update_buttons(self) -> None:
        checked = len(self.tree.checked_keys())
        has_rows = self.tree.proposed_count() > 0
        self.apply_button.setEnabled(checked > 0 and not self._writes.is_busy())
        self.check_all.setEnabled(has_rows)
        self.check_none.setEnabled(has_rows)
        if self.findings is None:
            self.summary.setText(
                translate("PruningPage", "Press Find to look for what could be forgotten.")
                if self.source is not None
                else translate("PruningPage", "Open a database or a persona folder to prune it.")
            )
        elif not has_rows:
            self.summary.setText(translate("PruningPage", "Nothing to propose: no candidates."))
        elif not checked:
            self.summary.setText(
                translate(
                    "PruningPage",
                    "Nothing checked: check a row, or a group by its own box, to forget it.",
                )
            )
        elif isinstance(self.source, PersonaFolder):
            self.summary.setText(
                i18n.plural(
                    checked,
                    translate(
                        "PruningPage",
                        "{n} entry checked: forgetting moves it to Memory Desk's trash; nothing"
                        " is deleted, and one undo brings it back.",
                    ),
                    translate(
                        "PruningPage",
                        "{n} entries checked: forgetting moves them to Memory Desk's trash;"
                        " nothing is deleted, and one undo brings them all back.",
                    ),
                )
            )
        else:
            self.summary.setText(
                i18n.plural(
                    checked,
                    translate(
                        "PruningPage",
                        "{n} observation checked: forgetting hides it from the agent; nothing"
                        " is deleted, and one undo brings it back.",
                    ),
                    translate(
                        "PruningPage",
                        "{n} observations checked: forgetting hides them from the agent; nothing"
                        " is deleted, and one undo brings them all back.",
                    ),
                )
            )

    # -- applying -----------------------------------------------------------------------------

    def apply(self) -> None:
        """Forget every checked row in one step, with one undo (module docstring)."""
        keys = self.tree.checked_keys()
        source = self.source
        if not keys or source is None or self._shown_source is not source:
            return
        if isinstance(source, ObservationStore):
            # (rows pinned, forgotten or deleted since the search stay: checked in the write)
            ids = [int(k) for k in keys]
            command = ForgetCommand(self, source, ids, keep_pinned=True)
            if not command.start():
                self.info_raised.emit(
                    translate(
                        "PruningPage",
                        "An earlier change is still being written; try again once it is",
                    )
                )
            self._update_buttons()
            return
        names = [str(k) for k in keys]
        written = [str(source.path / f"{name}.md") for name in names]
        self.undo_stack.push(
            ForgetEntriesCommand(
                source, names, lambda text: self._after_folder_write(text, written), self._report
            )
        )

    def _after_folder_write(self, message: str, paths: list[str]) -> None:
        """The entries went to the trash (or came back): live reload hears that these writes
        were the page's own, not an agent's."""
        for path in paths:
            self.file_written.emit(path)
        self.info_raised.emit(message)
        self.refresh()

    def _report(self, message: str) -> None:
        self.error_raised.emit(message)
        self.refresh()

    def is_writing(self) -> bool:
        return self._writes.is_busy()

    # -- what the observations' commands call (WriteHost) ------------------------------------

    def run_write(
        self, what: str, step: Callable[[], object], done: Callable[[Outcome], None]
    ) -> bool:
        return self._writes.run(what, step, done)

    def push(self, command: QUndoCommand) -> None:
        self.undo_stack.push(command)

    def drop_from_stack(self, command: QUndoCommand, *, undone: bool) -> None:
        """An undo or redo failed: the stack, already past it, forgets it."""
        if not shiboken6.isValid(command):
            return
        stack = self.undo_stack
        index = stack.index()
        command.setObsolete(True)
        if undone and index < stack.count() and stack.command(index) is command:
            stack.redo()
        elif not undone and index > 0 and stack.command(index - 1) is command:
            stack.undo()

    def after_write(self, store: ObservationStore, ids: Sequence[int], message: str) -> None:
        if message:
            self.info_raised.emit(message)
        if store is self.source:
            self.refresh()
        self._update_buttons()

    def report_error(self, message: str) -> None:
        self.error_raised.emit(message)

    def report_conflict(self, observation_id: int, message: str) -> None:
        self.error_raised.emit(message)

    def report_cancelled(self, message: str) -> None:
        """The command has said so through after_write."""

    def choose_topic(
        self, store: ObservationStore, conflict: TopicConflict, action: TopicAction
    ) -> str | None:
        return self._writes.ask(lambda: ask_topic_choice(store, conflict, action, self))

    def restore_stack_position(self, command: QUndoCommand, *, undone: bool) -> None:
        step_back_later(self.undo_stack, command, undone=undone, context=self)

    def undo_keys(self) -> str:
        if has_own_undo(QApplication.focusWidget()):
            return translate("PruningPage", "Edit ▸ Undo")
        return QKeySequence(QKeySequence.StandardKey.Undo).toString(
            QKeySequence.SequenceFormat.NativeText
        )
