"""The memory sources: one registry that opens and watches them, one sidebar that lists them.

:class:`SourceRegistry` opens databases and persona folders, follows the agents' writes,
checks what vanished and reopens a replaced database, and reports through signals;
:class:`SourceSidebar` shows the sources, their counts and the selected one's details.
"""

from memory_desk.ui.sources.registry import Source, SourceRegistry
from memory_desk.ui.sources.sidebar import SourceSidebar

__all__ = ["Source", "SourceRegistry", "SourceSidebar"]
