"""The kinds of memory stores, as types: code compares members, never spelled strings.

Two spellings live on disk and must keep reading: the window's sources are ``"db"`` or
``"persona"`` (the settings keep the last one shown as ``"db:/path"``), and the journal's
rows name a store's kind ``"observations"`` or ``"persona"``. Both are ``StrEnum``s whose
values are exactly those bytes, so what was written before reads the same, and each
converts to the other where a journal row leads to a source or back.
"""

from __future__ import annotations

from enum import StrEnum


class SourceKind(StrEnum):
    """What the window opens: an Alisio database or an agent-kit persona folder."""

    DB = "db"
    PERSONA = "persona"

    @property
    def store_kind(self) -> StoreKind:
        """How the journal names this kind of store in its rows."""
        return StoreKind.OBSERVATIONS if self is SourceKind.DB else StoreKind.PERSONA


class StoreKind(StrEnum):
    """The journal's name for the kind of store a change was seen in."""

    OBSERVATIONS = "observations"
    PERSONA = "persona"

    @property
    def source_kind(self) -> SourceKind:
        """The kind of source that shows a store of this kind."""
        return SourceKind.DB if self is StoreKind.OBSERVATIONS else SourceKind.PERSONA
