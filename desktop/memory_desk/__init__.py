"""Memory Desk: review, prune and hand-edit the memories AI agents keep."""

__version__ = "0.1.0"
APP_ID = "io.github.memorydesk.MemoryDesk"
