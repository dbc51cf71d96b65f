"""Watching folders other programs write, as Qt signals in the main thread.

One watchdog observer serves every folder a :class:`FolderWatcher` watches. Its
handler runs in the observer's thread and does one thing (:mod:`.observer`): it emits
a signal of a relay object living in the main thread (a queued connection). Everything
else (the per-path debounce timers, the settle check, recognising the app's own writes,
the periodic rescan, the health check) happens in the main thread.

What writers really do, and how it is handled:

- The agent rewrites an entry in place, in more than one ``write``: a burst of events
  is coalesced per path (trailing delay, with a maximum latency) and, before it is
  reported, the file must hold still (same size, mtime and inode as at the last event).
- Editors save through a temporary file and a rename: the rename's destination is
  reported; the temporary file appeared and vanished within the burst, so it is not.
- Every backend can drop events (inotify overflows, network filesystems): each folder
  is re-listed periodically (``WatchTiming.rescan_interval_ms``) and after an overflow,
  and differences are reported like events.
- The native observer may not start (inotify limits): the watcher falls back to
  watchdog's polling observer and says so through ``mode_changed``.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, QTimer, Signal, Slot
from watchdog.events import EVENT_TYPE_DELETED, EVENT_TYPE_MOVED

from memory_desk.core import folder_stats
from memory_desk.ui.i18n import translate
from memory_desk.ui.live.observer import (
    OVERFLOW_LOGGER,
    WATCHED_EVENTS,
    EventHandler,
    ObserverFactory,
    OverflowHook,
    Relay,
    native_observer,
    polling_observer,
)
from memory_desk.ui.live.stable import FileSignature, content_digest, file_signature

if TYPE_CHECKING:  # the observers are imported when the first one starts (not before the
    # window's first rows: see FolderWatcher.hold)
    from watchdog.observers.api import BaseObserver, ObservedWatch

MODE_NATIVE = "native"
MODE_POLLING = "polling"
MODE_OFF = "off"

# Errors that are one folder's problem, not the observer's (unlike inotify limits).
_FOLDER_ERRNOS = frozenset({errno.ENOENT, errno.ENOTDIR, errno.EACCES, errno.EPERM})


@dataclass(frozen=True)
class WatchTiming:
    """The watcher's clocks, in one place so tests and benchmarks can tighten them."""

    trailing_ms: int = 150  # report a path once it had no event for this long
    max_latency_ms: int = 500  # ... or at the latest this long after its first event
    settle_ms: int = 30  # re-check after this long when the file moved since its last event
    settle_cap_ms: int = 2_000  # a file that never holds still is reported anyway
    rescan_interval_ms: int = 30_000  # re-list folders: every backend can drop events
    health_interval_ms: int = 2_000  # look for a dead observer or a vanished folder
    polling_interval_s: float = 1.0  # the fallback observer's stat period
    own_write_ttl_s: float = 10.0  # how long expect_write() recognises its echo


@dataclass
class _Folder:
    """A watched folder and what the watcher last reported about its entries."""

    path: str
    debounce: bool
    users: int = 1
    known: dict[str, FileSignature] = field(default_factory=dict)
    watch: ObservedWatch | None = None
    inode: int | None = None
    missing: bool = False  # not there (or not readable): the health check retries
    problem: str = ""  # the last error said about this folder, so it is said once


@dataclass
class _Burst:
    """Events for one path that have not been reported yet."""

    folder: str
    timer: QTimer
    started: float  # monotonic time of the first event
    seen: FileSignature | None  # the file's signature when the latest event arrived


@dataclass
class _Expectation:
    """What the app itself just did to a path, so its echo can be dropped."""

    digest: str | None  # sha256 of the bytes written, None = the app deleted it
    expires: float  # monotonic


def _list_signatures(folder: str) -> dict[str, FileSignature]:
    """Every entry of ``folder`` (not recursive) with its signature: the rescan's view."""
    listing: dict[str, FileSignature] = {}
    for name, st in folder_stats.take(folder).items:
        if not isinstance(st, OSError):  # (vanished between listing and stat)
            listing[name] = (st.st_size, st.st_mtime_ns, st.st_ino)
    return listing


def _folder_inode(folder: str) -> int | None:
    try:
        return os.stat(folder).st_ino
    except OSError:
        return None


def _read_digest(path: str) -> str | None:
    try:
        with open(path, "rb") as handle:
            return content_digest(handle.read())
    except OSError:
        return None


def _default_polling_factory(timing: WatchTiming) -> ObserverFactory:
    return partial(polling_observer, timing.polling_interval_s)


class FolderWatcher(QObject):
    """Reports changed entries of watched folders, debounced, in the main thread.

    Signals:
        paths_changed(str folder, list[str] paths): entries of ``folder`` that were
            created, rewritten, deleted or renamed (both names), once each file held
            still; the app's own writes registered with :meth:`expect_write` and files
            that appeared and vanished within a burst are left out.
        rescan_needed(str folder): events for ``folder`` may have been lost (overflow,
            restarted observer, the folder vanished or came back). The watcher has
            re-listed it and reports the differences through ``paths_changed``; a
            consumer holding derived state may prefer to reload the whole folder.
        mode_changed(str): "native", "polling" (the native observer could not start)
            or "off" (nothing watched, or stopped). Read it any time from ``mode``.
        activity(str folder, str path): a raw, undebounced event (the database watcher
            uses it to check early); most consumers want ``paths_changed``.
        error(str): something a person may need to know (a folder cannot be watched).
    """

    paths_changed = Signal(str, list)
    rescan_needed = Signal(str)
    mode_changed = Signal(str)
    activity = Signal(str, str)
    error = Signal(str)

    def __init__(
        self,
        parent: QObject | None = None,
        *,
        timing: WatchTiming | None = None,
        observer_factory: ObserverFactory = native_observer,
        polling_factory: ObserverFactory | None = None,
    ) -> None:
        super().__init__(parent)
        self._held = False
        self._timing = timing or WatchTiming()
        self._observer_factory = observer_factory
        self._polling_factory = polling_factory or _default_polling_factory(self._timing)
        self._observer: BaseObserver | None = None
        self._mode = MODE_OFF
        self._fallback_reason = ""
        self._folders: dict[str, _Folder] = {}
        self._handlers: dict[str, EventHandler] = {}
        self._bursts: dict[str, _Burst] = {}
        self._expected: dict[str, _Expectation] = {}
        self._ready: dict[str, set[str]] = {}

        self._relay = Relay(self)
        queued = Qt.ConnectionType.QueuedConnection
        self._relay.event_seen.connect(self._on_event_seen, queued)
        self._relay.overflowed.connect(self._on_overflow, queued)
        self._relay.failed.connect(self._on_failed, queued)
        self._relay.rescanned.connect(self._on_rescanned, queued)
        self._listings: ThreadPoolExecutor | None = None  # rescans list folders there
        self._overflow_hook = OverflowHook(self._relay)

        self._emit_timer = self._make_timer(0, self._emit_ready, single_shot=True)
        self._rescan_timer = self._make_timer(self._timing.rescan_interval_ms, self.rescan)
        self._health_timer = self._make_timer(self._timing.health_interval_ms, self._check_health)

    def _make_timer(
        self, interval_ms: int, slot: Callable[[], None], *, single_shot: bool = False
    ) -> QTimer:
        timer = QTimer(self)
        timer.setInterval(interval_ms)
        timer.setSingleShot(single_shot)
        timer.timeout.connect(slot)
        return timer

    # -- public API ------------------------------------------------------------------

    @property
    def mode(self) -> str:
        """ "native", "polling" or "off"."""
        return self._mode

    @property
    def fallback_reason(self) -> str:
        """Why the native observer could not start ("" when it did)."""
        return self._fallback_reason

    def folders(self) -> list[str]:
        return list(self._folders)

    def watch(self, folder: str | os.PathLike[str], *, debounce: bool = True) -> str:
        """Watch ``folder`` (not recursively) and return the key used in the signals.

        The key is the folder's real path: compare signal arguments against it. A
        folder that does not exist yet is watched as soon as it appears. With
        ``debounce=False`` the folder only feeds ``activity`` (the database's folder).
        Watching the same folder twice counts users; each needs an :meth:`unwatch`.
        """
        key = os.path.realpath(folder)
        existing = self._folders.get(key)
        if existing is not None:
            existing.users += 1
            existing.debounce = existing.debounce or debounce
            return key
        entry = _Folder(key, debounce)
        self._folders[key] = entry
        self._handlers[key] = EventHandler(key, self._relay)
        entry.known = self._list_or_empty(entry)
        if self._held:
            return key  # release() starts the observer with every folder
        if self._observer is None:
            self._start()
        else:
            self._schedule_on_running(entry)
        return key

    def hold(self) -> None:
        """Start no observer until :meth:`release`: folders watched meanwhile are listed at
        once and their events followed from the release on (the window holds it until its
        first rows are painted; the rescan reports what changed in between)."""
        self._held = True

    def release(self) -> None:
        """Start the observer held back by :meth:`hold`, if a folder is watched."""
        if not self._held:
            return
        self._held = False
        if self._folders and self._observer is None:
            self._start()
            self.rescan()  # what changed while held

    def unwatch(self, folder: str | os.PathLike[str]) -> None:
        """Stop watching ``folder`` once its last user lets go.

        The observer thread stops (and is joined) with the last folder.
        """
        key = os.path.realpath(folder)
        entry = self._folders.get(key)
        if entry is None:
            return
        entry.users -= 1
        if entry.users > 0:
            return
        self._unschedule(entry)
        del self._folders[key]
        del self._handlers[key]
        self._ready.pop(key, None)
        for path in [p for p, burst in self._bursts.items() if burst.folder == key]:
            self._drop_burst(path)
        if not self._folders:
            self.stop()

    def expect_write(
        self, path: str | os.PathLike[str], content: bytes | None, *, digest: str | None = None
    ) -> None:
        """Register what the app is writing to ``path`` so its echo is not reported.

        Call it right before (or right after) saving, with the bytes written (or their
        ``content_digest``); ``content=None`` without a digest means the app deletes the
        file. While the file on disk matches, events for it are dropped; the first
        mismatch (another writer) is reported and ends the expectation.
        """
        if digest is None and content is not None:
            digest = content_digest(content)
        self._expected[self._path_key(path)] = _Expectation(digest, self._expiry())

    @Slot()
    def rescan(self) -> None:
        """Re-list every debounced folder and report entries that changed unseen."""
        for entry in list(self._folders.values()):
            if entry.debounce and not entry.missing:
                self._rescan_folder(entry)

    def stop(self) -> None:
        """Stop and join the observer thread, stop every timer; the mode becomes "off".

        The watcher forgets its folders and expectations; a later :meth:`watch` starts
        afresh (and tries the native observer again).
        """
        for timer in (self._emit_timer, self._rescan_timer, self._health_timer):
            timer.stop()
        for path in list(self._bursts):
            self._drop_burst(path)
        self._ready.clear()
        self._dispose_observer()
        if self._listings is not None:
            self._listings.shutdown(wait=True, cancel_futures=True)
            self._listings = None
        self._folders.clear()
        self._handlers.clear()
        self._expected.clear()
        self._fallback_reason = ""
        self._set_mode(MODE_OFF)

    @Slot(str)
    def _on_failed(self, reason: str) -> None:
        """The observer thread's handler failed: say it in the person's language (here, in
        the main thread, where the translators live)."""
        self.error.emit(
            translate("FolderWatcher", "File watcher error: {reason}").format(reason=reason)
        )

    # -- the observer ----------------------------------------------------------------

    def _start(self) -> None:
        """Start one observer for all folders: native if it can, polling otherwise."""
        if not self._fallback_reason:
            try:
                self._observer = self._launch(self._observer_factory)
                logging.getLogger(OVERFLOW_LOGGER).addHandler(self._overflow_hook)
                self._set_mode(MODE_NATIVE)
            except OSError as exc:
                self._fallback_reason = self._describe_failure(exc)
        if self._observer is None:
            try:
                self._observer = self._launch(self._polling_factory)
            except OSError as exc:
                self.error.emit(
                    translate("FolderWatcher", "Cannot watch folders for changes: {reason}").format(
                        reason=exc
                    )
                )
                self._set_mode(MODE_OFF)
                return
            self._set_mode(MODE_POLLING)
        self._rescan_timer.start()
        self._health_timer.start()

    def _launch(self, factory: ObserverFactory) -> BaseObserver:
        """Start an observer, then add the folders one by one so a failure names its folder."""
        observer = factory()
        try:
            observer.start()
            for entry in self._folders.values():
                self._schedule(observer, entry)
        except OSError:
            self._shutdown(observer)
            raise
        return observer

    def _schedule(self, observer: BaseObserver, entry: _Folder) -> None:
        """Add ``entry``'s watch on a running observer.

        A folder that is not there, or that we may not read, is the folder's problem: it
        is marked missing (the health check retries) and the second is said once. Any
        other OSError (inotify limits) is the observer's and propagates.
        """
        entry.watch = None
        entry.inode = _folder_inode(entry.path)
        entry.missing = entry.inode is None or not os.path.isdir(entry.path)
        if entry.missing:
            return
        try:
            entry.watch = observer.schedule(
                self._handlers[entry.path], entry.path, event_filter=WATCHED_EVENTS
            )
        except OSError as exc:
            if exc.errno not in _FOLDER_ERRNOS:
                raise
            entry.missing = True
            message = translate("FolderWatcher", "Cannot watch {path}: {reason}").format(
                path=entry.path, reason=exc.strerror or exc
            )
            if exc.errno in (errno.EACCES, errno.EPERM) and message != entry.problem:
                entry.problem = message
                self.error.emit(message)

    def _schedule_on_running(self, entry: _Folder) -> None:
        """A folder added while the observer runs; inotify limits may bite only now."""
        assert self._observer is not None
        try:
            self._schedule(self._observer, entry)
        except OSError as exc:
            if self._mode == MODE_POLLING:
                self.error.emit(
                    translate("FolderWatcher", "Cannot watch {path}: {reason}").format(
                        path=entry.path, reason=exc
                    )
                )
                return
            self._fallback_reason = self._describe_failure(exc)
            self._restart(fresh_start=False)

    def _unschedule(self, entry: _Folder) -> None:
        if self._observer is not None and entry.watch is not None:
            with contextlib.suppress(KeyError, OSError):  # its emitter died with the folder
                self._observer.unschedule(entry.watch)
        entry.watch = None

    def _restart(self, *, fresh_start: bool = True) -> None:
        """Replace the observer (dead thread, or native → polling) and catch up by rescanning."""
        self._dispose_observer()
        for entry in self._folders.values():
            entry.watch = None
        self._start()
        for entry in list(self._folders.values()):
            if entry.debounce and fresh_start:
                self.rescan_needed.emit(entry.path)
        self.rescan()

    def _dispose_observer(self) -> None:
        logging.getLogger(OVERFLOW_LOGGER).removeHandler(self._overflow_hook)
        observer, self._observer = self._observer, None
        if observer is not None:
            self._shutdown(observer)

    @staticmethod
    def _shutdown(observer: BaseObserver) -> None:
        """Stop and join an observer, started or not (stop() also joins its emitters)."""
        with contextlib.suppress(Exception):  # a half-started observer may not stop cleanly
            observer.stop()
        if observer.is_alive():
            observer.join(timeout=5)

    @staticmethod
    def _describe_failure(exc: OSError) -> str:
        if exc.errno in (errno.ENOSPC, errno.EMFILE):
            return translate(
                "FolderWatcher", "the system's limit on watched folders is reached ({reason})"
            ).format(reason=exc.strerror)
        return str(exc)

    def _set_mode(self, mode: str) -> None:
        if mode != self._mode:
            self._mode = mode
            self.mode_changed.emit(mode)

    # -- health and rescans ----------------------------------------------------------

    @Slot()
    def _check_health(self) -> None:
        """Restart a dead observer; re-attach folders that vanished, came back or moved."""
        if self._observer is None:
            return
        if not self._observer.is_alive():
            self._restart()
            return
        alive = {emitter.watch for emitter in self._observer.emitters if emitter.is_alive()}
        for entry in list(self._folders.values()):
            if entry.watch is not None and entry.watch in alive:
                if _folder_inode(entry.path) == entry.inode:
                    continue
            elif entry.missing and not os.path.isdir(entry.path):
                continue
            self._reattach(entry)

    def _reattach(self, entry: _Folder) -> None:
        """The folder's watch is gone or points at a replaced folder: watch it afresh."""
        was_missing = entry.missing
        self._unschedule(entry)
        self._schedule_on_running(entry)
        if entry.missing and was_missing:
            return
        if entry.debounce:
            self.rescan_needed.emit(entry.path)
            self._rescan_folder(entry)

    @Slot()
    def _on_overflow(self) -> None:
        for entry in list(self._folders.values()):
            if entry.debounce:
                self.rescan_needed.emit(entry.path)
        self.rescan()

    def _rescan_folder(self, entry: _Folder) -> None:
        """List the folder on the watcher's listing thread; :meth:`_on_rescanned` feeds the
        entries whose signature differs from the last report into the debounce.

        Listing a big folder takes a while, longer still while other threads run Python (each
        ``lstat`` gives up the interpreter's lock), so it stays off the window's thread. The
        listing is taken after the rescan is asked for, so it sees
        every change made before; a change concluded meanwhile is compared again with the
        file itself when it is concluded, so nothing is reported twice. A listing that reads
        the folder's files meanwhile (the persona page's) is waited for: the two side by side
        slow each other down (see ``folder_stats.reading_lock``)."""
        if self._listings is None:
            self._listings = ThreadPoolExecutor(max_workers=1, thread_name_prefix="md-rescan")
        relay, path = self._relay, entry.path

        def run() -> None:
            try:
                with folder_stats.reading_lock(path):
                    current = _list_signatures(path)
            except OSError:
                current = {}
            with contextlib.suppress(RuntimeError):  # the watcher is gone: nobody to tell
                relay.rescanned.emit(path, current)

        self._listings.submit(run)

    @Slot(str, object)
    def _on_rescanned(self, path: str, current: dict) -> None:
        entry = self._folders.get(path)
        if entry is None:
            return  # unwatched or stopped since
        for name in current.keys() | entry.known.keys():
            if current.get(name) != entry.known.get(name):
                self._note_change(entry.path, os.path.join(entry.path, name))

    def _list_or_empty(self, entry: _Folder) -> dict[str, FileSignature]:
        try:
            return _list_signatures(entry.path)
        except OSError:
            return {}

    # -- events and the debounce -------------------------------------------------------

    @Slot(str, str, str, str)
    def _on_event_seen(self, folder: str, event_type: str, src: str, dest: str) -> None:
        entry = self._folders.get(folder)
        if entry is None or self._observer is None:
            return  # unwatched or stopped while the event was queued
        if src == folder and event_type in (EVENT_TYPE_DELETED, EVENT_TYPE_MOVED):
            self._check_health()  # the folder itself went away
            return
        for path in (src, dest):
            if path and os.path.dirname(path) == folder:
                self.activity.emit(folder, path)
                if entry.debounce:
                    self._note_change(folder, path)

    def _note_change(self, folder: str, path: str) -> None:
        """(Re)start the path's timer: trailing delay, capped by the maximum latency."""
        now = time.monotonic()
        burst = self._bursts.get(path)
        if burst is None:
            timer = QTimer(self)
            timer.setSingleShot(True)
            timer.timeout.connect(partial(self._on_burst_timeout, path))
            burst = _Burst(folder, timer, now, None)
            self._bursts[path] = burst
        burst.seen = file_signature(path)
        elapsed_ms = (now - burst.started) * 1000
        delay = min(self._timing.trailing_ms, self._timing.max_latency_ms - elapsed_ms)
        burst.timer.start(max(0, int(delay)))

    def _on_burst_timeout(self, path: str) -> None:
        """Report the path once it holds still: same signature as at its latest event."""
        burst = self._bursts.get(path)
        if burst is None:
            return
        now_sig = file_signature(path)
        waited_ms = (time.monotonic() - burst.started) * 1000
        if now_sig != burst.seen and waited_ms < self._timing.settle_cap_ms:
            burst.seen = now_sig  # written after its last event arrived: still moving
            burst.timer.start(self._timing.settle_ms)
            return
        self._drop_burst(path)
        self._conclude(burst.folder, path, now_sig)

    def _drop_burst(self, path: str) -> None:
        burst = self._bursts.pop(path, None)
        if burst is not None:
            burst.timer.stop()
            burst.timer.deleteLater()

    def _conclude(self, folder: str, path: str, signature: FileSignature | None) -> None:
        """Report the path unless it is the app's own write or nothing really changed."""
        entry = self._folders.get(folder)
        if entry is None:
            return
        name = os.path.basename(path)
        own = self._is_own_write(path, signature)
        unchanged = entry.known.get(name) == signature  # also: appeared and vanished
        if signature is None:
            entry.known.pop(name, None)
        else:
            entry.known[name] = signature
        if own or unchanged:
            return
        self._ready.setdefault(folder, set()).add(path)
        self._emit_timer.start()  # paths concluded in the same loop pass share one signal

    @Slot()
    def _emit_ready(self) -> None:
        ready, self._ready = self._ready, {}
        for folder, paths in ready.items():
            if folder in self._folders:
                self.paths_changed.emit(folder, sorted(paths))

    # -- the app's own writes ----------------------------------------------------------

    def _is_own_write(self, path: str, signature: FileSignature | None) -> bool:
        expectation = self._expected.get(path)
        if expectation is None:
            return False
        if expectation.expires < time.monotonic():
            del self._expected[path]
            return False
        if expectation.digest is None:
            matches = signature is None
        else:
            matches = signature is not None and _read_digest(path) == expectation.digest
        if not matches:
            del self._expected[path]
        return matches

    def _expiry(self) -> float:
        now = time.monotonic()
        for key in [k for k, e in self._expected.items() if e.expires < now]:
            del self._expected[key]
        return now + self._timing.own_write_ttl_s

    @staticmethod
    def _path_key(path: str | os.PathLike[str]) -> str:
        """The path as events name it: the folder's real path plus the entry's name."""
        path = os.fspath(path)
        return os.path.join(os.path.realpath(os.path.dirname(path) or "."), os.path.basename(path))
