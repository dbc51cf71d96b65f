"""Exports the person starts from a page: observations to JSON or Markdown, a chat to
Markdown, a persona folder to a zip. Each asks where, runs in the background with progress
and Cancel, and creates files only the person can read (0600).

The work itself is :mod:`memory_desk.core.export` (pure reading, whole private output or
none); here it runs in a :class:`ProgressTask` so the window keeps painting, behind a
progress dialog (``exportProgressDialog``) that appears only when the export takes more than
a moment. The outcome goes to the page's own ``info_raised`` / ``error_raised`` signals (the
window's message bar) when it has them, else to a message box.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QObject, Qt, Signal
from PySide6.QtWidgets import (
    QFileDialog,
    QMessageBox,
    QProgressBar,
    QProgressDialog,
    QPushButton,
    QWidget,
)

from memory_desk.core import appdirs
from memory_desk.ui.i18n import plural, shown, translate
from memory_desk.ui.progress_task import ProgressTask

if TYPE_CHECKING:
    from memory_desk.core.export import ExportResult
    from memory_desk.core.observations import ObservationStore
    from memory_desk.core.persona import PersonaFolder
    from memory_desk.core.progress import Progress

    Job = Callable[[Progress], ExportResult]

# The progress dialog appears only for an export that takes longer than this: a quick one
# (a few observations, a small folder) just reports its outcome.
PROGRESS_DELAY_MS = 700
FORMATS = ("json", "markdown")


def start_observations_export(
    parent: QWidget, store: ObservationStore, ids: Sequence[int] | None, fmt: str
) -> ExportRun | None:
    """Export these observations (None: all of them, forgotten included) as ``fmt``:
    ``"json"`` (one file) or ``"markdown"`` (a folder, one file per observation).

    Asks where first (for Markdown, the folder in which a new dated folder is made); returns
    the running export, or None when the person chose nothing."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown export format {fmt!r}")
    core = _core()
    chosen = None if ids is None else tuple(ids)
    today = date.today()
    if fmt == "json":
        return _export_to_file(
            parent,
            translate("Export", "Export observations to JSON"),
            f"memory-observations-{today.isoformat()}.json",
            translate("Export", "JSON files (*.json)"),
            lambda path, progress: core.export_observations_json(store, chosen, path, progress),
            _observations_done,
        )
    where = QFileDialog.getExistingDirectory(
        parent,
        translate("Export", "Choose where to make the folder of Markdown files"),
        str(appdirs.exports_dir()),
    )
    if not where:
        return None
    folder = core.dated_folder(where, "memory-observations", today)
    return ExportRun(
        parent,
        lambda progress: core.export_observations_markdown(store, chosen, folder, progress),
        folder,
        _observations_done,
    )


def start_chat_export(
    parent: QWidget, store: ObservationStore, session_id: str
) -> ExportRun | None:
    """Export one chat (its saved observations, summary, loaded context, prompts) to Markdown;
    asks where first. Returns the running export, or None when the person chose nothing."""
    core = _core()
    return _export_to_file(
        parent,
        translate("Export", "Export the chat to Markdown"),
        f"chat-{core.slug(session_id)}.md",
        translate("Export", "Markdown files (*.md)"),
        lambda path, progress: core.export_chat_markdown(store, session_id, path, progress),
        _chat_done,
    )


def start_persona_export(parent: QWidget, folder: PersonaFolder) -> ExportRun | None:
    """Export a persona folder's entries to a zip, each file byte for byte; asks where first.
    Returns the running export, or None when the person chose nothing."""
    core = _core()
    return _export_to_file(
        parent,
        translate("Export", "Export the memory folder to a zip"),
        f"{folder_label(folder.path)}-{date.today().isoformat()}.zip",
        translate("Export", "Zip archives (*.zip)"),
        lambda path, progress: core.export_persona_zip(folder, path, progress),
        _persona_done,
    )


def folder_label(path: Path) -> str:
    """A file name stem for an agent's folder: ``miyagi-memory`` for ``~/.miyagi/memory`` (or
    agent-kit's ``agents/miyagi/memory``), ``miyagi-memory-work`` for an account's subfolder,
    else the folder's own name; the agent as the core names it (``locate.agent_of_folder``)."""
    from memory_desk.core.locate import agent_of_folder

    core = _core()
    keeper = agent_of_folder(Path(path))
    if keeper is None:
        return core.slug(Path(path).name)
    agent, account = keeper
    return core.slug("-".join([agent, "memory", *([account] if account else [])]))


class ExportRun(QObject):
    """One export the person started, from its progress dialog to its outcome.

    Lives as a child of the page that started it (so it ends with it) and deletes itself
    once it has reported. The dialog is window-modal: while it shows, the source being
    exported cannot be closed or changed under the export.

    Signals:
        ended(str): the export is over; the message the person was shown
    """

    ended = Signal(str)

    def __init__(
        self, parent: QWidget, job: Job, target: Path, describe: Callable[[ExportResult], str]
    ) -> None:
        super().__init__(parent)
        self.setObjectName("exportRun")
        self._page = parent
        self._describe = describe
        self.outcome: str | None = None
        self.task = ProgressTask(self)
        self.dialog = self._build_dialog(parent, target)
        self.task.progress.connect(self._on_progress)
        self.task.finished.connect(self._on_finished)
        self.task.failed.connect(self._on_failed)
        self.task.cancelled.connect(self._on_cancelled)
        app = QCoreApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(self.stop)
        self.task.start(job)

    def _build_dialog(self, parent: QWidget, target: Path) -> QProgressDialog:
        dialog = QProgressDialog(parent)
        dialog.setObjectName("exportProgressDialog")
        dialog.setWindowTitle(translate("Export", "Exporting"))
        dialog.setAccessibleName(translate("Export", "Export progress"))
        dialog.setLabelText(translate("Export", "Exporting to “{path}”…").format(path=target))
        dialog.setCancelButtonText(translate("Export", "Cancel"))
        cancel = dialog.findChild(QPushButton)
        if cancel is not None:
            cancel.setObjectName("exportCancelButton")
            cancel.setAccessibleName(translate("Export", "Cancel the export"))
        bar = dialog.findChild(QProgressBar)
        if bar is not None:
            bar.setAccessibleName(translate("Export", "Export progress"))
        dialog.setAutoClose(False)
        dialog.setAutoReset(False)
        dialog.setRange(0, 0)  # busy until the export knows how much there is
        dialog.setWindowModality(Qt.WindowModality.WindowModal)
        dialog.setMinimumDuration(PROGRESS_DELAY_MS)
        dialog.canceled.connect(self.cancel)
        return dialog

    def cancel(self) -> None:
        """Stop the export; it removes what it had written and reports ``cancelled``."""
        self.task.cancel()

    def stop(self) -> None:
        """Cancel and wait (the application is quitting): nothing half-written stays."""
        if self.task.is_busy():
            self.task.stop()
            self._close_dialog()

    def _on_progress(self, done: int, total: int) -> None:
        if total > 0:
            if self.dialog.maximum() != total:
                self.dialog.setRange(0, total)
            self.dialog.setValue(min(done, total))

    def _on_finished(self, result: object) -> None:
        assert isinstance(result, _core().ExportResult)
        self._end("info", self._describe(result))

    def _on_failed(self, message: str) -> None:
        self._end("error", message)

    def _on_cancelled(self) -> None:
        self._end("info", translate("Export", "Export cancelled; nothing was written."))

    def _end(self, kind: str, text: str) -> None:
        self._close_dialog()
        self.outcome = text
        signal = getattr(self._page, "info_raised" if kind == "info" else "error_raised", None)
        if signal is not None and hasattr(signal, "emit"):
            signal.emit(text)
        elif kind == "info":
            QMessageBox.information(self._page, translate("Export", "Export"), text)
        else:
            QMessageBox.warning(self._page, translate("Export", "Export failed"), text)
        self.ended.emit(text)
        self.deleteLater()

    def _close_dialog(self) -> None:
        dialog = self.dialog
        dialog.canceled.disconnect(self.cancel)
        dialog.reset()  # stops the timer that would show it
        dialog.hide()
        dialog.deleteLater()


# ----------------------------------------------------------------------------- helpers


def _core():
    """:mod:`memory_desk.core.export`, imported when the person first exports: every page
    imports this module for its menus, and the export code is not needed to start."""
    from memory_desk.core import export

    return export


def _export_to_file(
    parent: QWidget,
    title: str,
    name: str,
    filter_text: str,
    work: Callable[[Path, Progress], ExportResult],
    describe: Callable[[ExportResult], str],
) -> ExportRun | None:
    """Ask for the file (:func:`_ask_file`), then run ``work(path, progress)`` behind the
    progress dialog; None when the person chose nothing."""
    path = _ask_file(parent, title, name, filter_text)
    if path is None:
        return None
    return ExportRun(parent, lambda progress: work(path, progress), path, describe)


def _ask_file(parent: QWidget, title: str, name: str, filter_text: str) -> Path | None:
    """A file name from the save dialog (in Memory Desk's exports folder at first), with the
    format's suffix added when the person typed none; None when they cancelled."""
    suffix = Path(name).suffix
    chosen, _ = QFileDialog.getSaveFileName(
        parent, title, str(appdirs.exports_dir() / name), filter_text
    )
    if not chosen:
        return None
    path = Path(chosen)
    return path if path.suffix else path.with_name(path.name + suffix)


def _observations_done(result: ExportResult) -> str:
    return plural(
        result.count,
        translate("Export", "Exported {n} observation to “{path}”."),
        translate("Export", "Exported {n} observations to “{path}”."),
        path=str(result.path),
    )


def _chat_done(result: ExportResult) -> str:
    return plural(
        result.count,
        translate("Export", "Exported the chat and its {n} saved observation to “{path}”."),
        translate("Export", "Exported the chat and its {n} saved observations to “{path}”."),
        path=str(result.path),
    )


def _persona_done(result: ExportResult) -> str:
    text = plural(
        result.count,
        translate("Export", "Exported {n} entry to “{path}”."),
        translate("Export", "Exported {n} entries to “{path}”."),
        path=str(result.path),
    )
    if not result.skipped:
        return text
    files = "; ".join(f"{item.name} ({shown(item.reason)})" for item in result.skipped)
    left_out = plural(
        len(result.skipped),
        translate("Export", "{n} file was left out: {files}."),
        translate("Export", "{n} files were left out: {files}."),
        files=files,
    )
    return f"{text} {left_out}"
