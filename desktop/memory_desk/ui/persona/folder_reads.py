"""The persona page's reads of its folder: the first listing, reloads, and the reads it holds
back because they caught a file half-written.

``FolderReads`` owns the folder shown and every read of it. It tells the page what to show
through signals and never touches a widget: the page decides where the entries go.

- The first listing (``ui.persona.listing``) runs at once for a small folder, else on a worker
  that sends the newest entries first. Until every entry is in, nothing writes: a reload asked
  for meanwhile, and the entries an undo changed meanwhile, wait for it (``AfterListing``).
- A reload looks at the files' stat keys (on a worker for a big folder) and reads again only
  the files that changed. The page's own writes are applied the same way, entry by entry,
  without listing the folder again.
- The agent rewrites files in place, so a read can catch one half-written
  (:func:`listing.half_written`). Such a read is not shown: the entry is held back
  (``HeldBack``) and the folder is read again a moment later, a bounded number of times in a
  row, so that a writer that never stops cannot freeze the page.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from operator import attrgetter, indexOf

from PySide6.QtCore import QObject, QTimer, Signal

from memory_desk.core import StoreError
from memory_desk.core.persona import FolderProblem, PersonaEntry, PersonaFolder
from memory_desk.ui.i18n import shown
from memory_desk.ui.persona.listing import (
    SMALL_FOLDER,
    FirstScreen,
    Listed,
    StatKeys,
    half_written,
    held_as_shown,
    is_small,
    list_folder,
    scan_changes,
)
from memory_desk.ui.persona.model import PersonaListModel
from memory_desk.ui.persona.rows import haystacks
from memory_desk.ui.workers.background import BackgroundCall

# A read that caught a file half-written is held back and the folder read again this much
# later, at most this many times in a row (a writer that never stops must not freeze the page).
RECHECK_MS = 250
MAX_RECHECKS = 6
# A big listing's filter texts are made on a worker a little after it is shown: making them
# holds the interpreter's lock, which the window needs first to show the list.
HAYSTACKS_AFTER_MS = 250

_entry_name = attrgetter("name")


@dataclass
class AfterListing:
    """What waits for the first listing to be in: a reload the agent's writes asked for, and
    the entries an undo changed (their folder is the one being listed)."""

    reload: bool = False
    names: set[str] = field(default_factory=set)


class HeldBack:
    """The entries whose last read caught them half-written: the folder holds their new read,
    the list does not show it yet. ``rechecks`` counts the reads again in a row; the timer
    brings the next one."""

    def __init__(self, parent: QObject, recheck: Callable[[], None]) -> None:
        self.names: set[str] = set()
        self.rechecks = 0
        self.timer = QTimer(parent, singleShot=True, interval=RECHECK_MS)
        self.timer.timeout.connect(recheck)

    def hold(self, names: frozenset[str] | tuple[str, ...]) -> None:
        """Hold ``names`` back too, and read the folder again shortly."""
        self.names.update(names)
        self.timer.start()

    def release(self) -> set[str]:
        """The names held back, no longer held."""
        names, self.names = self.names, set()
        return names

    def may_wait(self) -> bool:
        """Whether one more recheck is allowed (and counted)."""
        if self.rechecks >= MAX_RECHECKS:
            return False
        self.rechecks += 1
        return True

    def clear(self) -> None:
        self.timer.stop()
        self.names.clear()


class Haystacks:
    """The filter's texts of a big listing, made on a worker a little after it is shown; the
    model takes them if it still shows that listing as it was (else it makes its own when the
    filter first needs them)."""

    def __init__(self, parent: QObject, model: PersonaListModel) -> None:
        self._model = model
        self._entries: list[PersonaEntry] | None = None
        self._maker = BackgroundCall(parent)
        self._maker.finished.connect(self._on_made)
        self._timer = QTimer(parent, singleShot=True, interval=HAYSTACKS_AFTER_MS)
        self._timer.timeout.connect(self._make)

    def make_later(self, entries: list[PersonaEntry]) -> None:
        self._entries = entries
        self._timer.start()

    def cancel(self) -> None:
        self._timer.stop()
        self._maker.cancel()
        self._entries = None

    def stop(self) -> None:
        self._timer.stop()
        self._maker.stop()

    def _make(self) -> None:
        entries, self._entries = self._entries, None
        if entries is not None:
            self._maker.submit(lambda: (entries, haystacks(entries)))

    def _on_made(self, _generation: int, made: object) -> None:
        entries, hays = made  # type: ignore[misc]
        self._model.offer_haystacks(entries, hays)


class FolderReads(QObject):
    """Every read of the folder shown (module docstring).

    Signals:
        started(): a big folder's listing started on a worker (nothing shown yet)
        first_screen(object): its newest entries (a ``FirstScreen``), shown read-only
        all_read(object, object): every entry is in: the entries to show and the names held
            back as half-written (a frozenset)
        listing_failed(str): the listing failed with this message
        changed(object, object, object): (listing, names, written) the folder's new listing,
            which differs from the one shown only in these entries
        listed(): the listing is done (every entry in, or it failed)
        error_raised(str): a read failed
    """

    started = Signal()
    first_screen = Signal(object)
    all_read = Signal(object, object)
    listing_failed = Signal(str)
    changed = Signal(object, object, object)
    listed = Signal()
    error_raised = Signal(str)

    def __init__(
        self, parent: QObject, model: PersonaListModel, shown_count: Callable[[], int]
    ) -> None:
        super().__init__(parent)
        self._model = model
        self._shown_count = shown_count  # entries shown: past SMALL_FOLDER, scans run on a worker
        self.folder: PersonaFolder | None = None
        self.problems: list[FolderProblem] = []  # what stops the agent reading its folder
        # None: no listing is being read; else what waits for the one being read
        self._after: AfterListing | None = None
        # the folder's files as last scanned (or what makes them: a listing's LazyKeys)
        self._keys: StatKeys | Callable[[], StatKeys] | None = None
        self.held = HeldBack(self, self._on_recheck_due)
        self._haystacks = Haystacks(self, model)
        self._lister = BackgroundCall(self)
        self._lister.interim.connect(self._on_first_screen)
        self._lister.finished.connect(self._on_listed)
        self._lister.failed.connect(self._on_listing_failed)
        self._scanner = BackgroundCall(self)  # the folder's stat keys, for a reload
        self._scanner.finished.connect(self._on_scanned)
        self._scanner.failed.connect(self._on_scan_failed)

    def is_listing(self) -> bool:
        return self._after is not None

    def is_reading(self) -> bool:
        return self._after is not None or self._scanner.is_busy() or self.held.timer.isActive()

    def stop(self) -> None:
        self.held.timer.stop()
        self._haystacks.stop()
        self._lister.stop()
        self._scanner.stop()

    # -- the first listing ------------------------------------------------------------------------

    def start(self, folder: PersonaFolder | None) -> None:
        """List ``folder``: at once when it is small, else on a worker (``started``, then
        ``first_screen``); ``all_read`` and ``listed`` once every entry is in. Nothing for no
        folder: the page shows none."""
        self._lister.cancel()
        self._scanner.cancel()
        self._haystacks.cancel()
        self.held.clear()
        self.folder = folder
        self._keys = None
        self._after = None
        self.problems = []
        if folder is None:
            return
        if is_small(folder.path):
            try:
                listed = list_folder(folder, None)
            except StoreError as exc:
                self.error_raised.emit(shown(exc))
                listed = Listed([], [], dict)
            self._after = AfterListing()
            self._on_listed(self._lister.generation, listed)
            return
        self._after = AfterListing()
        self.started.emit()
        self._lister.submit(lambda report: list_folder(folder, report), interim=True)

    def _on_first_screen(self, _generation: int, screen: object) -> None:
        if self._after is not None and isinstance(screen, FirstScreen):
            self.first_screen.emit(screen)

    def _on_listed(self, _generation: int, listed: object) -> None:
        """Every entry is in. An entry read half-written is held back, as a reload holds it
        (:meth:`_on_scanned`): it comes in once read whole. Then what waited for the listing."""
        after = self._after
        if after is None or not isinstance(listed, Listed):
            return
        self._after = None
        self._keys = listed.stat_keys
        self.problems = listed.problems
        held, entries = listed.held, listed.entries
        if held:
            entries = [e for e in entries if e.name not in held]
            self.held.hold(held)
            self.held.rechecks = 1
        if len(entries) > SMALL_FOLDER:  # (a small one's are made when first needed)
            self._haystacks.make_later(entries)
        self.all_read.emit(entries, held)
        if after.names:
            self.apply_change(names=tuple(after.names))
        if after.reload or listed.unsure:
            self.reload()
        self.listed.emit()

    def _on_listing_failed(self, _generation: int, message: str) -> None:
        self._after = None
        self.listing_failed.emit(message)
        self.listed.emit()

    # -- changes ----------------------------------------------------------------------------------

    def apply_change(
        self,
        *,
        names: tuple[str, ...] = (),
        written: tuple[PersonaEntry, ...] = (),
        file_names: list[str] | None = None,
    ) -> None:
        """Bring the page up to date after a change to these entries only: the folder is not
        listed again, and only their files are looked at (``names`` read again, ``written``
        taken as written; ``file_names`` for the folder's problems, by default the entries'
        files). The entries held back as half-written are read again, and stay held back if
        still so."""
        if self.folder is None:
            return
        if self._after is not None:  # (an undo of this folder's change, while it is listed)
            self._after.names.update(names, (e.name for e in written))
            return
        unshown = self.held.release() - {*names, *(e.name for e in written)}
        touched = (*names, *unshown)
        try:
            listing = self.folder.refresh(touched, written)
        except StoreError as exc:
            self.error_raised.emit(shown(exc))
            return
        held = half_written(_listed_entry(listing, name) for name in unshown)
        if held:
            self.held.hold(held)
            touched = tuple(name for name in touched if name not in held)
            listing = held_as_shown(listing, held, self._model.entry)
        if file_names is None:
            file_names = [f"{name}.md" for name in (*touched, *(e.name for e in written))]
        self._update_problems(file_names)
        self.changed.emit(listing, touched, written)

    def _update_problems(self, file_names: list[str]) -> None:
        """The folder's problems, with those of ``file_names`` looked at again."""
        try:
            fresh = self.folder.problems(file_names)
        except StoreError as exc:
            self.error_raised.emit(shown(exc))
            return
        touched = set(file_names)
        kept = [p for p in self.problems if p.path.name not in touched]
        self.problems = sorted([*kept, *fresh], key=lambda p: p.path.name)

    # -- reloads ----------------------------------------------------------------------------------

    def reload(self) -> None:
        """Read again what the agent changed (once the listing is in, if it is being read)."""
        if self.folder is None:
            return
        if self._after is not None:
            self._after.reload = True
            return
        if not self.held.timer.isActive():
            self.held.rechecks = 0  # (a writer still busy keeps counting against the cap)
        self._scan()

    def _scan(self) -> None:
        """Look at the folder's files' stat keys (a reload reads what changed): on a worker,
        unless the folder is small."""
        path, before = self.folder.path, self._keys or {}
        if self._shown_count() > SMALL_FOLDER:
            self._scanner.submit(lambda: scan_changes(path, before))
            return
        self._scanner.cancel()  # (an answer still to come would be older than this one)
        try:
            scanned = scan_changes(path, before)  # a small folder: a few stat calls, at once
        except StoreError as exc:
            self.error_raised.emit(shown(exc))
            return
        self._on_scanned(self._scanner.generation, scanned)

    def _on_scanned(self, _generation: int, scanned: object) -> None:
        """Read again only the files that changed since the last scan, and show them, unless
        one looks caught in the middle of a write.

        A read of a file that looks half-written (:func:`half_written`: the files held back
        before are read again too) holds the page as it was; the folder is scanned again after
        ``RECHECK_MS`` (and the file read again). Once the file is complete, or has held still
        long enough (a person may leave a file that way), the read is shown; after
        ``MAX_RECHECKS`` in a row, whatever it holds.
        """
        if self.folder is None or self._after is not None or not isinstance(scanned, tuple):
            return
        keys, changed = scanned
        names = tuple(n[:-3] for n in changed)
        if not changed and not self.held.names:
            self.held.timer.stop()
            return
        reread = (*names, *self.held.names)
        try:
            listing = self.folder.refresh(reread)
        except StoreError as exc:
            self.error_raised.emit(shown(exc))
            return
        torn = half_written(_listed_entry(listing, name) for name in reread)
        if torn and self.held.may_wait():
            self.held.hold(names)
            return
        self.held.timer.stop()
        self._keys = keys
        touched = (*names, *self.held.release())
        self._update_problems(list(changed))
        self.changed.emit(listing, touched, ())

    def _on_scan_failed(self, _generation: int, message: str) -> None:
        self.error_raised.emit(message)

    def _on_recheck_due(self) -> None:
        if self.folder is not None and self._after is None:
            self._scan()


def _listed_entry(listing: list[PersonaEntry], name: str) -> PersonaEntry | None:
    """Entry ``name`` in ``listing`` (a pass in C, no Python loop), or None."""
    try:
        return listing[indexOf(map(_entry_name, listing), name)]
    except ValueError:
        return None
