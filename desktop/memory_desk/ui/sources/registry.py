"""The open memory sources: their stores, watchers, presence checks and replaced files.

One object outside the main window, so that a page (or a later one: sessions, overview,
pruning) plugs in through signals instead of window code. The registry opens databases and
persona folders once and keeps them, follows the agents' writes (``data_version`` for a
database, watchdog for a folder), checks every few seconds what vanished or came back, and
switches a database source to the file now at its path when another program replaced it.
It knows nothing of pages or of which source is shown: whoever shows one reacts to
``changed`` and ``replacing``/``replaced``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer, Signal

from memory_desk.core import StoreError
from memory_desk.core.journal.witness import Witness
from memory_desk.core.kinds import SourceKind
from memory_desk.core.locate import store_label
from memory_desk.core.observations import ObservationStore
from memory_desk.ui import i18n
from memory_desk.ui import settings as settings_module
from memory_desk.ui.i18n import translate
from memory_desk.ui.live import DatabaseWatcher, FolderWatcher

if TYPE_CHECKING:
    from memory_desk.core.locate import AlisioLocation

SOURCES_REFRESH_MS = 5000


@dataclass(eq=False)
class Source:
    """One store shown in the sidebar; the store object is opened once and kept."""

    kind: SourceKind
    path: Path
    label: str
    store: object | None = None
    found: bool = False  # found by locate (so it may vanish), rather than opened by the person
    info: dict = field(default_factory=dict)
    watcher: DatabaseWatcher | None = None  # for a database
    watch_key: str = ""  # for a persona folder: the FolderWatcher's key
    file_id: tuple[int, int] | None = None  # for a database: the file its connection reads
    # for a folder: the agents wrote while another source was shown, so its page, which
    # still holds it, must read it again when the person comes back
    stale: bool = False


class SourceRegistry(QObject):
    """Opens, watches and re-checks the memory sources; reports through signals.

    Signals:
        added(Source): a source was opened (by the person or found by locate)
        changed(Source): an agent wrote to the source (live reload is on)
        presence_checked(): the periodic check ran; rows may show a source gone or back
        replacing(Source): the database's store is about to close: let go of it now
        replaced(Source, str, str): the source now reads the file at its path, or none (its
            ``file_id`` is None then); the message says what happened, the problem (or "")
            why the file there could not be opened
        live_changed(): live reload was paused or resumed, or a change was just seen
        error(str), info(str): messages for the person

    ``witness`` is given to every store the registry opens: it hears the person's own writes
    and tells the journal the review desk attaches to it, which may come after the stores
    were opened (the desk starts after the first paint).
    """

    added = Signal(object)
    changed = Signal(object)
    presence_checked = Signal()
    replacing = Signal(object)
    replaced = Signal(object, str, str)
    live_changed = Signal()
    error = Signal(str)
    info = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._sources: list[Source] = []
        self._locating = False
        self._live = True
        self.last_change: float | None = None
        self.witness = Witness()
        self.folder_watcher = FolderWatcher(self)
        self.folder_watcher.paths_changed.connect(self._on_paths_changed)
        self.folder_watcher.rescan_needed.connect(lambda key: self._on_paths_changed(key, []))
        self.folder_watcher.mode_changed.connect(lambda _mode: self.live_changed.emit())
        self.folder_watcher.error.connect(self.error)
        self._timer = QTimer(self)
        self._timer.setInterval(SOURCES_REFRESH_MS)
        self._timer.timeout.connect(lambda: self.refresh(recount=False))

    # -- what is open ---------------------------------------------------------------------------

    def sources(self) -> list[Source]:
        """Every open source, in the order they were opened."""
        return list(self._sources)

    def find(self, kind: SourceKind, path: Path) -> Source | None:
        path = Path(path).expanduser().absolute()
        for source in self._sources:
            if source.kind == kind and source.path == path:
                return source
        return None

    # -- opening --------------------------------------------------------------------------------

    def open_database(
        self, path: Path, *, found: bool = False, info: dict | None = None
    ) -> Source | None:
        """The source for this Alisio database, opened now if it is not yet; None (with an
        ``error``) if it cannot be."""
        path = Path(path).expanduser().absolute()
        existing = self.find(SourceKind.DB, path)
        if existing is not None:
            return existing
        try:
            store = ObservationStore(path, witness=self.witness)
        except StoreError as exc:
            self.error.emit(i18n.shown(exc))
            return None
        label = store_label(SourceKind.DB, path)
        if store.warnings:  # one message: the bar shows one at a time
            self.info.emit(
                translate("SourceRegistry", "{name} is open, but: {warnings}.").format(
                    name=label, warnings="; ".join(i18n.shown(w) for w in store.warnings)
                )
            )
        source = Source(
            SourceKind.DB, path, label, store, found, dict(info or {}), file_id=store.identity
        )
        self._add(source)
        return source

    def open_persona_folder(
        self, path: Path, *, label: str | None = None, found: bool = False
    ) -> Source | None:
        """The source for this agent's memory folder, opened now if it is not yet; None (with
        an ``error``) if it cannot be."""
        path = Path(path).expanduser().absolute()
        existing = self.find(SourceKind.PERSONA, path)
        if existing is not None:
            return existing
        from memory_desk.core.persona import PersonaFolder  # not needed for a database alone

        try:
            limits = settings_module.trash_limits()
            folder = PersonaFolder(path, trash_limits=limits, witness=self.witness)
        except StoreError as exc:
            self.error.emit(i18n.shown(exc))
            return None
        folder.tidy()  # what a killed Memory Desk left in it; keeps the trash within limits
        source = Source(SourceKind.PERSONA, path, label or folder_label(path), folder, found)
        self._add(source)
        return source

    def _add(self, source: Source) -> None:
        self._watch(source)
        self._sources.append(source)
        self.added.emit(source)

    def hold_watching(self) -> None:
        """Open sources without starting the folder watcher's thread (nor importing it) until
        :meth:`start_watching`: the window holds it until its first rows are painted. The
        databases' own checks (``PRAGMA data_version``) start at once all the same."""
        self.folder_watcher.hold()

    def start_watching(self) -> None:
        """Start what :meth:`hold_watching` held back."""
        self.folder_watcher.release()

    def start_checking(self) -> None:
        """Look again every few seconds for sources that appeared, vanished or were replaced."""
        self._timer.start()

    def refresh(self, *, extra_folders: list[Path] | None = None, recount: bool = True) -> bool:
        """Open stores that appeared and re-check the open ones; False when a refresh is
        already running. Without ``recount`` only presence is checked (``presence_checked``):
        the watchers report a source's changes, and recounting a big folder every few
        seconds would keep a core busy while idle."""
        from memory_desk.core.locate import locate_alisio, locate_persona_folders

        if self._locating:
            return False
        self._locating = True
        try:
            alisio = locate_alisio()
            info = alisio_info(alisio)
            known = self.find(SourceKind.DB, alisio.db_path)
            if known is not None:
                known.info = info  # the config may have changed since (plugin turned off)
            elif alisio.exists:
                self.open_database(alisio.db_path, found=True, info=info)
            extra = added_folders() if extra_folders is None else extra_folders
            for location in locate_persona_folders(extra=extra):
                if not location.path.is_dir():
                    continue  # an added folder that is gone: its sidebar row says so
                self.open_persona_folder(location.path, label=location.label, found=True)
        finally:
            self._locating = False
        for source in self.sources():
            self.reopen_if_replaced(source)
        if not recount:
            self.presence_checked.emit()
        return True

    # -- live reload ----------------------------------------------------------------------------

    def _watch(self, source: Source) -> None:
        """Follow the agents' writes to this source: data_version for a database, watchdog
        for a folder. Both report through signals in the main thread."""
        if source.kind == SourceKind.DB:
            source.watcher = DatabaseWatcher(source.path, self, folder_watcher=self.folder_watcher)
            source.watcher.changed.connect(lambda s=source: self._on_database_changed(s))
            source.watcher.replaced.connect(
                lambda message, s=source: self.reopen_if_replaced(s, message)
            )
            source.watcher.start()
            if not self._live:
                source.watcher.pause()
        else:
            source.watch_key = self.folder_watcher.watch(source.path)

    def is_live(self) -> bool:
        return self._live

    def set_live(self, live: bool) -> None:
        """Pause or resume live reload. A resumed DatabaseWatcher reports what was committed
        meanwhile by itself; folder events are dropped while paused, so every folder is
        marked stale (whoever shows one reads it again)."""
        if live == self._live:
            return
        self._live = live
        for source in self._sources:
            if source.watcher is not None:
                (source.watcher.resume if live else source.watcher.pause)()
            if live and source.kind == SourceKind.PERSONA:
                source.stale = True
        self.live_changed.emit()

    def expect_own_write(self, path: str) -> None:
        """A page just wrote (or removed) ``path``: its echo is not an agent's write."""
        try:
            content: bytes | None = Path(path).read_bytes()
        except OSError:
            content = None  # removed (forget, rename): expect the file to be gone
        self.folder_watcher.expect_write(path, content)

    def _on_database_changed(self, source: Source) -> None:
        self._note_change()
        if file_id(source.path) != source.file_id:
            self.reopen_if_replaced(source)  # a database appeared where there was none
            return
        self.changed.emit(source)

    def _on_paths_changed(self, key: str, _paths: list) -> None:
        if not self._live:
            return
        for source in self.sources():
            if source.kind == SourceKind.PERSONA and source.watch_key == key:
                self._note_change()
                self.changed.emit(source)

    def _note_change(self) -> None:
        self.last_change = time.time()
        self.live_changed.emit()

    # -- a replaced database ----------------------------------------------------------------------

    def reopen_if_replaced(self, source: Source, message: str | None = None) -> None:
        """Switch a database source to the file now at its path, or to none, when the path no
        longer holds the file its store has open (deleted, moved, or replaced by a rename-over).

        The same for a database opened by hand and one found: the old store's writes are
        refused by the store itself (StoreReplaced); ``replaced`` says what happened and the
        page shows what is there now. The old store and watcher close *before* the new file
        is opened (``replacing`` comes first, so a page lets go of the old store): until they
        do, the old file's ``-wal``/``-shm`` sit at the path's names, and a new connection
        would read them as the new file's.
        """
        if source.kind != SourceKind.DB:
            return
        now = file_id(source.path)
        if now == source.file_id:
            return
        had_file = source.file_id is not None
        if message is None:
            message = _what_happened(source.path, now, had_file=had_file)
        if source.watcher is not None:
            source.watcher.stop()
            source.watcher.deleteLater()
            source.watcher = None
        self.replacing.emit(source)
        source.store.close()
        source.file_id = None
        store, problem = (None, None)
        if now is not None:
            store, problem = _open_store_at(source.path, self.witness)
        if store is not None:
            source.store, source.file_id = store, store.identity
        self._watch(source)
        self._tell_switch(source, message, store, problem, had_file=had_file)
        self.replaced.emit(source, message, problem or "")

    def _tell_switch(
        self,
        source: Source,
        message: str,
        store: ObservationStore | None,
        problem: str | None,
        *,
        had_file: bool,
    ) -> None:
        """Say what happened to the file and what the page shows now."""
        if store is not None and not had_file:
            self.info.emit(translate("SourceRegistry", "{what}: showing it").format(what=message))
        elif store is not None:
            self.error.emit(
                translate(
                    "SourceRegistry",
                    "{what}. Memory Desk now shows the file that is there now; nothing you do from now on goes to the old one.",
                ).format(what=message)
            )
        elif problem is not None:
            self.error.emit(
                translate(
                    "SourceRegistry", "{what}. The file there now cannot be opened: {problem}"
                ).format(what=message, problem=problem)
            )
        elif had_file:
            self.error.emit(
                translate(
                    "SourceRegistry",
                    "{what}. Nothing is shown for {source} until a database is at that path again; if it was moved, open it from its new place (File ▸ Open database).",
                ).format(what=message, source=source.label)
            )

    # -- closing --------------------------------------------------------------------------------

    def stop(self) -> None:
        """Stop the periodic check and every watcher (the pages may still hold the stores)."""
        self._timer.stop()
        for source in self._sources:
            if source.watcher is not None:
                source.watcher.stop()
        self.folder_watcher.stop()

    def close_stores(self) -> None:
        """Close every store; after ``stop`` and after the pages let go of them."""
        for source in self._sources:
            close = getattr(source.store, "close", None)
            if close is not None:
                close()


def _open_store_at(path: Path, witness: Witness) -> tuple[ObservationStore | None, str | None]:
    try:
        return ObservationStore(path, witness=witness), None
    except StoreError as exc:
        return None, i18n.shown(exc)


def added_folders() -> list[Path]:
    """Persona folders the person opened by hand: found again at every start."""
    value = settings_module.app_settings().value("persona/added", [])
    if isinstance(value, str):
        value = [value]
    return [Path(v) for v in value or []]


def remember_added_folder(path: Path) -> None:
    """Find this folder again at every start (see :func:`added_folders`)."""
    path = Path(path).expanduser().absolute()
    added = added_folders()
    if path not in added:
        settings = settings_module.app_settings()
        settings.setValue("persona/added", [str(p) for p in [*added, path]])
        settings_module.sync_private(settings)


def file_id(path: Path) -> tuple[int, int] | None:
    """Which file is at ``path`` (device, inode); None when there is none."""
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_dev, st.st_ino


def _what_happened(path: Path, now: tuple[int, int] | None, *, had_file: bool) -> str:
    """The switch's reason when no watcher said it (a count or a presence check saw it)."""
    if not had_file:
        return translate("SourceRegistry", "A database appeared at {path}").format(path=path)
    if now is None:
        return translate(
            "SourceRegistry", "{path} is no longer there: it was deleted, or moved elsewhere"
        ).format(path=path)
    return translate(
        "SourceRegistry",
        "{path} was replaced by another file (another program moved or copied one over it)",
    ).format(path=path)


def alisio_info(alisio: AlisioLocation) -> dict:
    """What the sidebar's info panel tells about an Alisio database found by locate."""
    return {
        "enabled": alisio.enabled,
        "config": str(alisio.config_path) if alisio.config_path else "",
        "settings": dict(alisio.settings),
        "configured": sorted(alisio.configured),
        "problems": list(alisio.problems),
    }


def folder_label(path: Path) -> str:
    """``miyagi`` for ~/.miyagi/memory or <agent-kit>/agents/miyagi/memory, ``miyagi (work)``
    for an account's subfolder: the core's one naming of a folder (``locate.folder_label``)."""
    return store_label(SourceKind.PERSONA, path)
