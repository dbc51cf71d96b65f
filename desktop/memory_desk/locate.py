"""Compatibility name: the locating of stores lives in :mod:`memory_desk.core.locate`.

Kept so that code and scripts written against ``memory_desk.locate`` keep working; new
code imports from the core.
"""

from memory_desk.core.locate import (  # noqa: F401
    CONFIG_FILE_NAME,
    DB_FILE_NAME,
    DEFAULT_SETTINGS,
    AlisioLocation,
    PersonaLocation,
    agent_of_folder,
    alisio_config_home,
    alisio_state_home,
    describe_folder,
    folder_label,
    has_entry_files,
    locate_alisio,
    locate_persona_folders,
    store_label,
)
