"""``PersonaFolder``: one agent's memory folder, listed, read and written the way the agent does.

Reading never writes; a write changes only what the person changed, atomically; nothing is
lost (a file changed on disk is not overwritten; renamed or forgotten ones go to the trash).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from pathlib import Path

from memory_desk.core.errors import ConflictError, StoreError
from memory_desk.core.journal.witness import Witness
from memory_desk.core.messages import msg
from memory_desk.core.persona.atomic import (
    STALE_AFTER_S,
    fsync_dir,
    new_entry_mode,
    publish_new,
    same_file,
    write_temp,
)
from memory_desk.core.persona.entry import (
    ENTRY_TYPES,
    NAME_RE,
    PersonaEntry,
    already_exists,
    bad_type,
    cannot_fix,
    cannot_rename,
    cannot_save,
    changed_since_rename,
    check_description,
    check_storable,
    could_not_create,
    could_not_forget,
    could_not_list,
    could_not_put_back,
    could_not_save,
    no_rename_record,
    no_such_entry,
    now_iso,
    printable_name,
    suggest_name,
    trash_copy_missing,
    unreadable_folder,
    utf8,
    validate_name,
)
from memory_desk.core.persona.folder_problems import (
    RENAME_ASIDE,
    FolderFix,
    FolderProblem,
    aside_name,
    listing_problems,
    problems_of,
)
from memory_desk.core.persona.listing import Listing
from memory_desk.core.persona.moves import (
    forget_link,
    move_renamed,
    read_for_move,
    rename_within,
    settle_leftovers,
    take_out,
)
from memory_desk.core.persona.permissions import check_writable_in_place, keep_owner
from memory_desk.core.persona.reading import (
    LARGE_ENTRY_BYTES,
    check_stem,
    current_sha,
    entry_from_bytes,
    is_entry_file_name,
    is_stem,
    sha256,
)
from memory_desk.core.persona.rewrites import edited_text, fixed_text, renamed_bytes
from memory_desk.core.persona.scan import Progress, Stats, load_entry, scan_folder
from memory_desk.core.persona.trash import (
    DEFAULT_TRASH_LIMITS,
    TrashedEntry,
    TrashLimits,
    default_trash_dir,
    prune,
    put_in_trash,
    read_meta,
    remove_item,
    rename_record,
    trashed_from,
)
from memory_desk.core.persona.unfinished import (
    FINISH_AFTER_S,
    finish_moves,
    mark_undoing,
    unmark_undoing,
)
from memory_desk.core.persona_format import render_new_file


class PersonaFolder:
    """One agent's memory folder, read and written the way the agent does.

    ``trash`` is where renamed and forgotten files go (default: :func:`default_trash_dir`); it
    is created only when something is first put in it, and kept within ``trash_limits`` (the
    person's settings) each time something is. Opening a folder reads it only: call
    :meth:`tidy` once it is opened to remove what a killed Memory Desk left behind.
    ``witness`` hears every write, so the journal never lists it (see :class:`Witness`).
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        trash: Path | None = None,
        trash_limits: TrashLimits = DEFAULT_TRASH_LIMITS,
        witness: Witness | None = None,
    ) -> None:
        folder = Path(path).expanduser().absolute()
        refusal = unreadable_folder(folder)
        if refusal is not None:
            raise StoreError(refusal)
        self.path = folder
        self._real = folder.resolve()
        self.trash = trash if trash is not None else default_trash_dir()
        self.trash_limits = trash_limits
        self.witness = witness if witness is not None else Witness()
        self._cache: dict[str, tuple[tuple[int, ...], PersonaEntry]] = {}
        self._listing = Listing()
        self._listed = False

    def __repr__(self) -> str:
        return f"PersonaFolder({str(self.path)!r})"

    # ------------------------------------------------------------------ reading

    def entries(
        self,
        *,
        progress: Progress | None = None,
        first: int = 300,
        stats: Stats = None,
        unsure: set[str] | None = None,
    ) -> list[PersonaEntry]:
        """Every entry: the agent's in its order, then those the agent cannot see, by name.

        Entries beyond the first ``PROMPT_LIMIT`` the agent sees carry a warning that its prompt
        does not list them. The folder keeps this listing: a file unchanged since this folder
        last read it is not read again. ``stats`` and
        ``unsure``: as :func:`~memory_desk.core.persona.scan.scan_folder` takes them.

        With ``progress``, the files are read newest (by modification time) first, and
        ``progress(read, total, entries)`` is called exactly once, from the calling thread,
        after the first ``first`` files are read (after all of them in a smaller folder):
        ``entries`` are those read so far, in the final listing's order, with the
        beyond-the-prompt marks as far as they are known then (an entry marked then is marked
        in the end). The result is the same either way. Safe on a worker thread when no other
        thread uses this folder object meanwhile; the object may then go to another thread.
        """
        args = (self._cache, progress, first, self._listing.preview, stats, unsure)
        loaded, self._cache = scan_folder(self.path, self._real, *args)
        self._listing.replace_all(loaded)
        self._listed = True
        return self._listing.entries()

    def refresh(
        self, names: Iterable[str] = (), written: Iterable[PersonaEntry] = ()
    ) -> list[PersonaEntry]:
        """:meth:`entries` after a change to these entries only, without listing the folder.

        ``names`` are read again from disk (an entry that is gone leaves the listing);
        ``written`` are entries as Memory Desk just wrote them (what :meth:`save`,
        :meth:`create`, :meth:`rename` or :meth:`fix` returned), taken as they are. Every
        other entry stays as last listed; the first call lists the whole folder.
        """
        if not self._listed:
            return self.entries()
        changes: dict[str, PersonaEntry | None] = {}
        for name in names:
            changes[name] = self._load(name, use_cache=True) if is_stem(name) else None
        for entry in written:
            size = entry.fingerprint.size  # (a large file is listed by its start only)
            whole = size is not None and size <= LARGE_ENTRY_BYTES
            changes[entry.name] = entry if whole else self._load(entry.name, use_cache=True)
        self._listing.update(changes)
        return self._listing.entries()

    def entry_count(self) -> int | None:
        """How many entries the last listing (:meth:`entries` or :meth:`refresh`) held, None
        before the first: no file is read, so what other programs did since is not counted."""
        return len(self._listing) if self._listed else None

    def problem_count(self) -> int | None:
        """How many entries of the last listing have a problem (None before the first)."""
        return self._listing.with_problems() if self._listed else None

    def names(self) -> list[str]:
        """The names of every file that could be an entry (cheap: no file is read)."""
        return sorted(self._entry_names())

    def read(self, name: str) -> PersonaEntry:
        """The entry ``name`` (its file stem) as it is on disk now."""
        check_stem(name)
        entry = self._load(name)
        if entry is None:
            raise StoreError(no_such_entry(name, self.path))
        return entry

    def has_changed(self, entry: PersonaEntry) -> bool:
        """Whether the file now differs from what ``entry`` was read from, or is gone."""
        current = self._load(entry.name)
        return current is None or current.fingerprint.sha256 != entry.fingerprint.sha256

    def problems(self, file_names: Iterable[str] | None = None) -> list[FolderProblem]:
        """What in the folder stops the agent reading its memory at all, by file name (of
        only ``file_names``, after a change to them, if given). Cheap (one listing and a stat per entry name the agent reads; no file is read), so a
        view can ask at every reload."""
        if file_names is not None:
            return problems_of(self.path, file_names)
        return listing_problems(self.path)

    def _entry_names(self) -> list[str]:
        try:
            with os.scandir(self.path) as it:
                return [d.name[:-3] for d in it if is_entry_file_name(d.name)]
        except OSError as exc:
            raise StoreError(could_not_list(self.path, exc)) from exc

    def _entry_path(self, name: str) -> Path:
        return self.path / f"{name}.md"

    def _load(self, name: str, *, use_cache: bool = False) -> PersonaEntry | None:
        """Read one entry; None when it is not (or no longer) an entry file (see load_entry)."""
        path = self._entry_path(name)
        return load_entry(name, path, self._real, self._cache, use_cache=use_cache)

    # ------------------------------------------------------------------ writing

    def save(self, entry: PersonaEntry, *, force: bool = False) -> PersonaEntry:
        """Write the person's edits of ``entry``; ``updated`` becomes now.

        Only what changed is rewritten: a changed description or type replaces its own line,
        a changed body replaces the text after the header; every other byte stays as it is.
        A description is stored as the agent stores one (on one line) and must not be empty:
        the agent cannot update an entry without one. Raises ConflictError, leaving the disk
        untouched, when the file changed since ``entry`` was read (``force=True`` writes
        anyway), and StoreError for text that cannot be stored.
        """
        self._check_editable(entry)
        if entry.path.name != f"{entry.name}.md":
            raise StoreError(
                msg("Persona", "To change an entry's name, rename it; saving keeps the file name.")
            )
        description = check_description(entry.description)
        check_storable("text", entry.body)
        if entry.type not in ENTRY_TYPES:
            raise StoreError(bad_type())
        text = edited_text(entry, description)
        return self._replace(entry, utf8(text), force=force)

    def create(self, *, name: str, type: str, description: str, body: str) -> PersonaEntry:
        """A new entry, written exactly as the agent writes one; never replaces a file.

        Like the agent, it needs a kebab-case name and a description (stored on one line);
        text that cannot be stored is refused with a StoreError.
        """
        problem = validate_name(name)
        if problem:
            raise StoreError(problem)
        if type not in ENTRY_TYPES:
            raise StoreError(bad_type())
        description = check_description(description)
        check_storable("text", body)
        path = self._entry_path(name)
        if path.resolve().parent != self._real:
            raise StoreError(
                msg(
                    "Persona",
                    "“{name}” would not be stored inside {folder}.",
                    name=name,
                    folder=str(self.path),
                )
            )
        text = render_new_file(
            name=name, description=description, type=type, updated=now_iso(), body=body
        )
        data = utf8(text)
        try:
            st = publish_new(path, data, self._new_mode(), witness=self.witness)
        except FileExistsError as exc:
            raise ConflictError(already_exists(name)) from exc
        except OSError as exc:
            raise StoreError(could_not_create(name, exc)) from exc
        return entry_from_bytes(name, path, data, st)

    def rename(self, entry: PersonaEntry, new_name: str) -> PersonaEntry:
        """Give ``entry`` a new file name; the old file goes to the trash (undo: undo_rename).

        The ``name:`` line follows the new name; everything else stays byte-identical.
        Crash-safe: a copy goes to the trash, the new name is published whole, and only then
        does the old name go, so at every instant the entry is under its old or its new name
        (after a kill between the two steps, under both).
        """
        problem = validate_name(new_name)
        if problem:
            raise StoreError(problem)
        if new_name == entry.name:
            return self.read(new_name)
        if entry.link_target is not None or entry.fingerprint.sha256 is None:
            raise StoreError(cannot_rename(entry))
        new_path = self._entry_path(new_name)
        if os.path.lexists(new_path) and not same_file(new_path, entry.path):
            # (the same file: a change of case on a case-insensitive file system)
            raise ConflictError(already_exists(new_name))
        data, mode = read_for_move(entry.path, entry.fingerprint.sha256)
        new_data = renamed_bytes(data, new_name)
        trashed = put_in_trash(
            self.trash, self._real, entry.name, data, mode, "rename", renamed_to=new_name
        )
        item = trashed.path.name
        try:
            st = move_renamed(entry.path, new_path, data, new_data, mode, item, self.witness)
        except BaseException:
            remove_item(trashed.path)
            raise
        self._pruned()
        return entry_from_bytes(new_name, new_path, new_data, st)

    def undo_rename(self, renamed: PersonaEntry, old_name: str) -> PersonaEntry:
        """Put a renamed entry back under ``old_name``, byte for byte as it was.

        ConflictError if the renamed file changed since the rename (undoing would lose that
        change) or if ``old_name`` is taken again. Crash-safe like :meth:`rename`: the old
        name is back before the new one goes.
        """
        trashed = rename_record(self.trashed(), old_name, renamed.name)
        if trashed is None:
            raise StoreError(no_rename_record(old_name))
        old_path = self._entry_path(old_name)
        changed = ConflictError(changed_since_rename(renamed.name, old_name))
        if os.path.lexists(old_path):
            raise changed
        meta = read_meta(trashed.path)
        try:
            old_data = (trashed.path / meta["file"]).read_bytes()
        except OSError as exc:
            raise StoreError(trash_copy_missing(old_name)) from exc
        as_renamed = sha256(renamed_bytes(old_data, renamed.name))
        if current_sha(self._entry_path(renamed.name)) != as_renamed:
            raise changed
        mark_undoing(trashed.path)  # a kill from here on is finished as an undo
        self.witness.persona_write(self._entry_path(renamed.name), None)
        try:
            st = publish_new(old_path, old_data, self._mode_of(meta), witness=self.witness)
        except OSError as exc:
            unmark_undoing(trashed.path)
            self.witness.persona_not_written(self._entry_path(renamed.name))
            if isinstance(exc, FileExistsError):
                raise changed from exc
            raise StoreError(could_not_put_back(old_name, exc)) from exc
        try:
            take_out(
                self._entry_path(renamed.name),
                as_renamed,
                trashed.path.name,
                witness=self.witness,
                published=(old_path, st),
            )
        except ConflictError as exc:
            raise changed from exc
        remove_item(trashed.path)
        return self.read(old_name)

    def forget(self, name: str) -> TrashedEntry:
        """Take entry ``name`` out of the folder (the agent forgets it) into the trash.

        Crash-safe: the file leaves the folder only once its copy in the trash is whole.
        """
        check_stem(name)
        path = self._entry_path(name)
        try:
            lst = os.lstat(path)
        except FileNotFoundError as exc:
            raise StoreError(no_such_entry(name, self.path)) from exc
        except OSError as exc:
            raise StoreError(could_not_forget(name, exc)) from exc
        if stat.S_ISLNK(lst.st_mode):
            return forget_link(self.trash, self._real, name, path, witness=self.witness)
        if not stat.S_ISREG(lst.st_mode):
            raise StoreError(
                msg(
                    "Persona",
                    "“{name}.md” is not an entry file (it is a folder or a device).",
                    name=name,
                )
            )
        data, mode = read_for_move(path, None)
        trashed = put_in_trash(self.trash, self._real, name, data, mode, "forget")
        try:
            take_out(path, sha256(data), trashed.path.name, witness=self.witness)
        except BaseException:
            remove_item(trashed.path)
            raise
        self._pruned()
        return trashed

    def unforget(self, trashed: TrashedEntry) -> PersonaEntry:
        """Put a trashed file back in the folder; ConflictError if its name is taken again.

        The file is whole in the folder before its trash item goes (after a kill in between,
        it is in both).
        """
        meta = read_meta(trashed.path)
        if Path(meta["folder"]) != self._real:
            raise StoreError(
                msg(
                    "Persona",
                    "“{name}” was forgotten from another folder, {folder}.",
                    name=trashed.name,
                    folder=meta["folder"],
                )
            )
        path = self._entry_path(trashed.name)
        try:
            if meta.get("symlink"):
                os.symlink(meta["symlink"], path)
                fsync_dir(self.path)
            else:
                data = (trashed.path / meta["file"]).read_bytes()
                publish_new(path, data, self._mode_of(meta), witness=self.witness)
        except FileExistsError as exc:
            raise ConflictError(
                msg(
                    "Persona",
                    "An entry named “{name}” exists again; rename or forget it first.",
                    name=trashed.name,
                )
            ) from exc
        except OSError as exc:
            raise StoreError(could_not_put_back(trashed.name, exc)) from exc
        remove_item(trashed.path)
        return self.read(trashed.name)

    def tidy(self, *, stale_after_s: float | None = None) -> list[Path]:
        """Housekeeping when a folder is opened; returns the leftovers handled in the folder.

        Memory Desk's own hidden files that a killed Memory Desk left in the folder and that
        nothing touched for ``stale_after_s`` seconds go: a temporary file is deleted (its
        bytes were never published); an entry set aside on its way to the trash is deleted if
        the trash holds the same bytes, else kept in the trash (never lost). Then the trash is
        pruned to ``trash_limits``. A rename (or its undo) a kill left under both names is
        finished as its intent says (:mod:`~memory_desk.core.persona.unfinished`). Never touches a file of the agent's or the person's; errors
        are ignored (it is tried again at the next open). ``stale_after_s`` defaults to
        ``STALE_AFTER_S`` (see :mod:`~memory_desk.core.persona.atomic` for why 15 minutes).
        """
        if stale_after_s is None:
            stale_after_s = STALE_AFTER_S
        handled = settle_leftovers(self.path, self.trash, self._real, stale_after_s)
        min_age_s = min(stale_after_s, FINISH_AFTER_S)
        finish_moves(self.path, self.trash, self._real, min_age_s, witness=self.witness)
        prune(self.trash, self.trash_limits, stale_after_s=stale_after_s)
        return handled

    def trashed(self) -> list[TrashedEntry]:
        """What Memory Desk took out of this folder and still keeps, newest first."""
        return trashed_from(self.trash, self._real)

    def fix(self, entry: PersonaEntry, fix_id: str) -> PersonaEntry:
        """Apply a one-click fix to the file ``entry`` was read from (its unsaved edits are not
        written); ConflictError if the file changed since.

        A name the agent does not read is never written into a header (it may hold line
        breaks): "set-name" on such a file renames it to a kebab-case name instead, which
        also sets its ``name:`` line.
        """
        if fix_id == "rename" or (fix_id == "set-name" and not NAME_RE.fullmatch(entry.name)):
            taken = set(self.names())
            return self.rename(entry, suggest_name(entry.name, taken))
        if entry.fingerprint.sha256 is None or any(
            p.code in ("not-utf8", "link-outside", "broken-link", "link-loop")
            for p in entry.problems
        ):
            raise StoreError(cannot_fix(entry))
        return self._replace(entry, utf8(fixed_text(entry, fix_id)), force=False)

    def fix_folder_problem(self, problem: FolderProblem) -> FolderFix:
        """Apply ``problem``'s fix: rename the culprit to a free name without ``.md``, so the
        agent no longer reads it; what it holds or points to is not touched. Undo with
        :meth:`undo_folder_fix`. ConflictError if the folder no longer has that problem."""
        current = next((p for p in self.problems() if p.path == problem.path), None)
        if current is None or current.code != problem.code:
            raise ConflictError(
                msg(
                    "Persona",
                    "“{name}” changed since it was checked; nothing was renamed.",
                    name=printable_name(problem.path.name),
                )
            )
        if problem.fix_id != RENAME_ASIDE:
            name = printable_name(problem.path.name)
            raise StoreError(msg("Persona", "There is no fix for “{name}”.", name=name))
        moved_to = self.path / aside_name(self.path, problem.path.name)
        rename_within(problem.path, moved_to, witness=self.witness)
        return FolderFix(problem.path, moved_to)

    def undo_folder_fix(self, done: FolderFix) -> None:
        """Give the culprit of a folder fix its old name back (the problem comes back too)."""
        if os.path.lexists(done.path):
            raise ConflictError(
                msg(
                    "Persona",
                    "Something named “{name}” is in the folder again; nothing was renamed.",
                    name=printable_name(done.path.name),
                )
            )
        if not os.path.lexists(done.moved_to):
            name = printable_name(done.moved_to.name)
            raise StoreError(msg("Persona", "“{name}” is no longer there.", name=name))
        rename_within(done.moved_to, done.path, witness=self.witness)

    # ------------------------------------------------------------------ write helpers

    @staticmethod
    def _check_editable(entry: PersonaEntry) -> None:
        if not entry.editable:
            raise StoreError(cannot_save(entry))

    def _replace(self, entry: PersonaEntry, data: bytes, *, force: bool) -> PersonaEntry:
        """Atomically replace ``entry``'s file with ``data`` unless it changed since read."""
        target = entry.link_target or entry.path
        on_disk: os.stat_result | None = None
        try:
            on_disk = os.stat(target)
            mode = stat.S_IMODE(on_disk.st_mode)
        except FileNotFoundError:
            if not force:
                raise ConflictError(
                    msg(
                        "Persona",
                        "“{name}” was deleted or renamed on disk since it was opened.",
                        name=entry.name,
                    )
                ) from None
            mode = self._new_mode()
        except OSError as exc:
            raise StoreError(could_not_save(entry.name, exc)) from exc
        check_writable_in_place(target, entry.name, on_disk)
        if not force:
            self._check_unchanged(entry, target)
        try:
            tmp, st = write_temp(target.parent, data, mode)
        except OSError as exc:
            raise StoreError(could_not_save(entry.name, exc)) from exc
        try:
            keep_owner(tmp, on_disk)
            if not force:
                self._check_unchanged(entry, target)
            self.witness.persona_write(entry.path, data)
            os.replace(tmp, target)
            fsync_dir(target.parent)
        except OSError as exc:
            tmp.unlink(missing_ok=True)
            raise StoreError(could_not_save(entry.name, exc)) from exc
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
        return entry_from_bytes(entry.name, entry.path, data, st, entry.link_target)

    @staticmethod
    def _check_unchanged(entry: PersonaEntry, target: Path) -> None:
        if current_sha(target) != entry.fingerprint.sha256:
            raise ConflictError(
                msg(
                    "Persona",
                    "“{name}” changed on disk since it was opened (perhaps the agent saved it). "
                    "Nothing was written.",
                    name=entry.name,
                )
            )

    def _new_mode(self) -> int:
        """The mode of a new entry file: that of the folder's entries (see new_entry_mode)."""
        return new_entry_mode(self.path, (f"{n}.md" for n in self._entry_names()))

    def _mode_of(self, meta: dict) -> int:
        """The mode a file put back from the trash gets: its own, else the folder's."""
        mode = meta.get("mode")
        return mode if isinstance(mode, int) else self._new_mode()

    def _pruned(self) -> None:
        """Keep the trash within its limits after something was put in it."""
        prune(self.trash, self.trash_limits, stale_after_s=STALE_AFTER_S)
