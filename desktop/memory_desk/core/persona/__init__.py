"""An agent-kit agent's memory of the person: a folder of markdown entries (FORMATS.md, part B).

``PersonaFolder`` lists, reads and writes the entries the way the agent does, so what Memory
Desk shows is what the agent sees: the grammar lives in :mod:`memory_desk.core.persona_format`.

Three promises shape this package:

- reading never writes: listing a folder creates, modifies or touches nothing;
- a write changes only what the person changed: untouched header lines stay byte-identical and
  in place, the line breaks stay the file's own, and every file is replaced atomically;
  a kill at any instant leaves every entry whole, under its old or its new name or in the
  trash (what a kill leaves of Memory Desk's own is removed by ``PersonaFolder.tidy``);
- nothing is lost by accident: a file that changed on disk since it was read is not
  overwritten (:class:`ConflictError`), and renamed or forgotten files go to Memory Desk's own
  trash, outside every agent folder, from where they can be put back.

Its rooms, each importing only those above it:

- ``entry``: what an entry is (``PersonaEntry``, ``Problem``), names and what can be stored;
- ``agent_view``: what the agent sees (its order, the index, the prompt section);
- ``rewrites``: the person's edits, a rename and the one-click fixes, as text;
- ``problems``: what is odd about one entry, in plain words;
- ``reading``: files read safely, and turned into entries;
- ``listing``: the folder's entries in the agent's order, kept and updated in place;
- ``atomic``: writes that are all or nothing;
- ``trash``: where renamed and forgotten entries go, to be put back, and how it is pruned;
- ``moves``: taking entries out of the folder without ever losing one, even when killed;
- ``folder_problems``: what in the folder stops the agent reading its memory at all;
- ``folder``: ``PersonaFolder``, which uses them all.

Code outside the package imports from here every name the single module had. A test that
changes a constant (``RACY_NS``...) patches the room that uses it, not this package: a name
re-exported here is a copy. Pure Python, no Qt.
"""

from __future__ import annotations

from memory_desk.core.errors import ConflictError, StoreError
from memory_desk.core.persona.agent_view import (
    PROMPT_HEADING,
    PROMPT_INDEX_MARK,
    PROMPT_INTRO,
    PROMPT_LIMIT,
    PROMPT_RULES,
    PROMPT_SECTION,
    agent_index,
    agent_order,
    listed_prompt_parts,
    prompt_parts,
    prompt_section,
)
from memory_desk.core.persona.atomic import (
    ASIDE_SUFFIX,
    EMPTY_FOLDER_MODE,
    STALE_AFTER_S,
    TEMP_SUFFIX,
)
from memory_desk.core.persona.entry import (
    ENTRY_TYPES,
    MAX_NAME_LENGTH,
    NAME_RE,
    RESERVED_NAMES,
    Fingerprint,
    PersonaEntry,
    Problem,
    agent_description,
    header_name,
    now_iso,
    printable_name,
    suggest_name,
    validate_name,
)
from memory_desk.core.persona.folder import PersonaFolder
from memory_desk.core.persona.folder_problems import (
    RENAME_ASIDE,
    FolderFix,
    FolderProblem,
    listing_failure,
)
from memory_desk.core.persona.problems import LARGE_BODY_BYTES, ODD_DESCRIPTIONS
from memory_desk.core.persona.reading import (
    LARGE_ENTRY_BYTES,
    MAX_FILE_BYTES,
    RACY_NS,
    START_BYTES,
    is_start_only,
)
from memory_desk.core.persona.rewrites import DESCRIPTION_GUESS_LIMIT, FIX_LABELS
from memory_desk.core.persona.trash import (
    DEFAULT_TRASH_LIMITS,
    TrashedEntry,
    TrashLimits,
    default_trash_dir,
)

__all__ = [
    "ASIDE_SUFFIX",
    "DEFAULT_TRASH_LIMITS",
    "EMPTY_FOLDER_MODE",
    "STALE_AFTER_S",
    "TrashLimits",
    "DESCRIPTION_GUESS_LIMIT",
    "ENTRY_TYPES",
    "FIX_LABELS",
    "LARGE_BODY_BYTES",
    "LARGE_ENTRY_BYTES",
    "MAX_FILE_BYTES",
    "MAX_NAME_LENGTH",
    "NAME_RE",
    "ODD_DESCRIPTIONS",
    "PROMPT_HEADING",
    "PROMPT_INDEX_MARK",
    "PROMPT_INTRO",
    "PROMPT_LIMIT",
    "PROMPT_RULES",
    "PROMPT_SECTION",
    "RACY_NS",
    "RENAME_ASIDE",
    "RESERVED_NAMES",
    "START_BYTES",
    "TEMP_SUFFIX",
    "ConflictError",
    "Fingerprint",
    "FolderFix",
    "FolderProblem",
    "PersonaEntry",
    "PersonaFolder",
    "Problem",
    "StoreError",
    "TrashedEntry",
    "agent_description",
    "agent_index",
    "agent_order",
    "default_trash_dir",
    "header_name",
    "is_start_only",
    "listed_prompt_parts",
    "listing_failure",
    "now_iso",
    "prompt_parts",
    "printable_name",
    "prompt_section",
    "suggest_name",
    "validate_name",
]
