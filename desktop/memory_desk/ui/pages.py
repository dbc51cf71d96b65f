"""The Page contract every page implements, the one way to build an action, and the router.

A page is asked through its contract, never through its children: its actions (one
``page_actions`` group, enabled only while it is in front) and what it adds to the window's
menus (:meth:`Page.menu_actions`), its status line and messages (three signals), whether it
may close (:meth:`Page.may_close`: unsaved edits ask first), and being told it is in front
(:meth:`Page.set_current`) or that the window closes (:meth:`Page.shutdown`). A page whose
rows have ids also selects one by its id (:class:`SelectsById`).

One page showing something of another ("open this row in its page": the review, overview
and chats pages do it) goes through the :class:`Router`, not the window: a page says what it
wants shown with its own ``*_requested`` signals, and the router follows them
(:meth:`Router.follow`), or is called directly.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, runtime_checkable

from PySide6.QtCore import QObject, SignalInstance
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QMenu, QWidget

# What a page adds to a menu: an action, a submenu, or a separator (None).
MenuItem = QAction | QMenu | None


@runtime_checkable
class Page(Protocol):
    """What the window expects of each of its six pages (module docstring).

    Signals:
        status_changed(str): the text for the status bar while the page is in front
        error_raised(str): something the person asked for failed
        info_raised(str): something the person should know
    """

    status_changed: SignalInstance
    error_raised: SignalInstance
    info_raised: SignalInstance
    page_actions: QActionGroup

    def set_current(self, current: bool) -> None: ...

    def menu_actions(self) -> list[MenuItem]: ...

    def may_close(self) -> bool: ...

    def shutdown(self) -> None: ...


@runtime_checkable
class SelectsById(Protocol):
    """A page whose rows have ids selects one by it, clearing what hides it when it can:
    the observations page (an observation id), the chats page (a session id), the persona
    page (an entry's name: False when the list does not show it)."""

    def select_id(self, key: int | str) -> bool | None: ...


def make_action(
    parent: QObject,
    name: str,
    text: str,
    shortcut: QKeySequence | QKeySequence.StandardKey | str | None,
    slot: Callable[..., object],
    tip: str,
) -> QAction:
    """The one way to build an action: its object name, its text (Qt shows the shortcut in
    menus beside it, never copied into the text), its keys, its status tip, and a tooltip
    that names the keys in the person's language. A widget parent also takes the action, so
    its shortcut works wherever the focus is in it."""
    action = QAction(text, parent)
    action.setObjectName(name)
    if shortcut is not None:
        action.setShortcut(QKeySequence(shortcut))
    keys = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
    action.setToolTip(f"{tip} ({keys})" if keys else tip)
    action.setStatusTip(tip)
    action.triggered.connect(slot)
    if isinstance(parent, QWidget):
        parent.addAction(action)
    return action


def fill_menu(menu: QMenu, items: list[MenuItem]) -> None:
    """Put a page's menu items in ``menu``, in order."""
    for item in items:
        if item is None:
            menu.addSeparator()
        elif isinstance(item, QMenu):
            menu.addMenu(item)
        else:
            menu.addAction(item)


class Router(QObject):
    """Shows one page's row in another page: pages call this instead of the window.

    It is given two calls by whoever composes the pages: ``show_page(name)`` puts a page in
    front (selecting a source of its kind), ``page(name)`` returns that page, built on first
    need.
    """

    def __init__(
        self,
        show_page: Callable[[str], None],
        page: Callable[[str], QWidget | None],
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._show_page = show_page
        self._page = page

    def follow(self, page: QObject) -> None:
        """Show what ``page`` asks for with the requests it has: ``observation_requested``
        (an id), ``day_requested`` (a date), ``open_chat_requested`` (a session id),
        ``timeline_requested`` (an observation id)."""
        for name, route in (
            ("observation_requested", self.show_observation),
            ("day_requested", self.show_day),
            ("open_chat_requested", self.show_chat),
            ("timeline_requested", self.show_timeline),
        ):
            requested = getattr(page, name, None)
            if requested is not None:
                requested.connect(route)

    def show_page(self, name: str) -> None:
        self._show_page(name)

    def _front(self, name: str) -> QWidget:
        self._show_page(name)
        page = self._page(name)
        assert page is not None, name
        return page

    def show_observation(self, observation_id: int) -> None:
        """The observations table, with this row selected."""
        self._front("observations").select_id(observation_id)

    def show_day(self, day) -> None:  # noqa: ANN001 - a datetime.date
        """The observations table, showing only what was saved on ``day``."""
        self._front("observations").show_saved_on(day)

    def show_chat(self, session_id: str) -> None:
        """The Chats page, with this chat selected."""
        self._front("chats").select_id(session_id)

    def show_entry(self, name: str) -> bool:
        """The persona page, with this entry of its folder selected (False: not listed)."""
        return self._front("persona").select_id(name)

    def show_timeline(self, observation_id: int, project: str | None = None) -> None:
        """The Chats page, with this observation's chronological neighbours in its chat."""
        page = self._front("chats")
        if project is None:
            page.show_timeline(observation_id)
        else:
            page.show_timeline(observation_id, project)
