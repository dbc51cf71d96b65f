"""A page that reads its store only while in front: the lazy reading three pages share.

It implements the Page contract of :mod:`memory_desk.ui.pages`.

The window arranges pages; each page owns its actions (``page_actions``, enabled only while
it is in front) and reports through ``status_changed``, ``error_raised`` and ``info_raised``.
A page of the current database that is not in front (the chats while the table shows) must
not read anything when the agent writes: :meth:`ViewPage.refresh` only marks it stale, and it
reads again when it comes to the front (:meth:`ViewPage.set_current`). Pages that read
:meth:`load` there, off the main thread, and show the answer when it comes.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtGui import QActionGroup
from PySide6.QtWidgets import QWidget


class ViewPage(QWidget):
    """A page that reads its store only while it is in front (module docstring).

    Subclasses implement :meth:`load` (start reading; answers arrive through signals) and
    :meth:`shutdown` (stop their threads).

    Signals:
        status_changed(str): the text for the status bar while the page is in front
        error_raised(str): something the person asked for failed
        info_raised(str): something the person should know
    """

    status_changed = Signal(str)
    error_raised = Signal(str)
    info_raised = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.page_actions = QActionGroup(self)
        self.page_actions.setExclusive(False)
        self.page_actions.setEnabled(False)
        self._current = False
        self._stale = True

    @property
    def is_current(self) -> bool:
        return self._current

    def set_current(self, current: bool) -> None:
        """The window calls this when the page comes to the front (True) or leaves it."""
        self._current = current
        self.page_actions.setEnabled(current)
        if current and self._stale:
            self._stale = False
            self.load()

    def refresh(self) -> None:
        """The store changed: read again now if in front, else when the page comes back."""
        if self._current:
            self._stale = False
            self.load()
        else:
            self._stale = True

    def menu_actions(self) -> list:
        """What the page adds to the window's menus (see ui/pages.py): none by default."""
        return []

    def may_close(self) -> bool:
        """Whether the window may close: a page without edits of its own always may."""
        return True

    def load(self) -> None:
        """Start reading what the page shows (off the main thread)."""

    def shutdown(self) -> None:
        """Stop timers and threads; called when the window closes."""
