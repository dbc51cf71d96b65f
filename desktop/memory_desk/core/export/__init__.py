"""Exports the person asks for: observations to JSON or Markdown, one chat to Markdown, a
persona folder to a zip. Pure Python; the UI runs them off the window's thread.

Two promises:

- **Pure reading of the stores.** The database is read with ``SELECT`` only, through
  :meth:`ObservationStore.read` (no counter or timestamp moves because a person exported), in
  chunks of ids so that neither memory nor a read transaction grows with the database; the
  persona folder's files are opened read-only and never touched.
- **Whole, private output or none.** Files are created 0600 and folders 0700 from the first
  byte (``os.open``/``mkdir`` with the mode, set exactly on the still empty file, so no umask
  can widen it), under a hidden temporary name beside the target (Memory Desk's own
  ``.<hex>.memory-desk.tmp``, which an agent never reads as an entry), and renamed into place
  only when complete. A Cancel (:class:`~memory_desk.core.progress.Cancelled` from
  ``progress.step``) or an error removes the partial output and leaves a file already at the
  target as it was. Write failures become :class:`StoreError` in words a person can act on.

The files' own words (headings such as "Session summary") are English, like the plugin's
section names they sit beside; the person's data is written as stored.

Formats (read back by the tests):

- JSON: one object ``{"export": {format, version, exported_at, database, columns, count},
  "observations": [...]}``; each observation holds every column of the plugin's table
  (``columns``, as stored: times in milliseconds) plus ``forgotten``. A value SQLite holds as
  bytes is ``{"base64": ...}``.
- Markdown: a folder with ``index.md`` and one ``<id>-<slug>.md`` per observation: a front
  matter block (one ``key: value`` per line, each value a JSON scalar, which YAML reads too;
  times ISO 8601 UTC), a blank line, then the content exactly as stored and one newline.

Its rooms, each importing only those above it:

- ``result``: what an export made (``ExportResult``) and what it left out (``Skipped``);
- ``files``: private files and folders, whole or none, and the words for a failed write;
- ``text``: times and one-line text as the files write them;
- ``observations``: observations to JSON or Markdown, read in chunks;
- ``chat``: one chat to Markdown;
- ``persona_zip``: a persona folder to a zip.

Code outside the package imports from here every name the single module had.
"""

from __future__ import annotations

from memory_desk.core.export.chat import chat_markdown, export_chat_markdown, fenced
from memory_desk.core.export.files import PRIVATE_FILE, PRIVATE_FOLDER, dated_folder
from memory_desk.core.export.observations import (
    FORMAT_NAME,
    FORMAT_VERSION,
    SLUG_MAX,
    export_observations_json,
    export_observations_markdown,
    observation_file_name,
    observation_markdown,
    slug,
)
from memory_desk.core.export.persona_zip import export_persona_zip
from memory_desk.core.export.result import ExportResult, Skipped
from memory_desk.core.export.text import iso_utc

__all__ = [
    "FORMAT_NAME",
    "FORMAT_VERSION",
    "PRIVATE_FILE",
    "PRIVATE_FOLDER",
    "SLUG_MAX",
    "ExportResult",
    "Skipped",
    "chat_markdown",
    "dated_folder",
    "export_chat_markdown",
    "export_observations_json",
    "export_observations_markdown",
    "export_persona_zip",
    "fenced",
    "iso_utc",
    "observation_file_name",
    "observation_markdown",
    "slug",
]
