"""The status bar's live-reload switch: whether what the agents write shows at once.

A checkable button that says its state in words (the symbol is never the only sign), with the
time of the last change seen on disk; its tooltip and accessible description say what a click
does and, when folders are polled, why. It draws in the palette's button text on the window
colour, so it reads the same in light and dark.
"""

from __future__ import annotations

from PySide6.QtCore import QDateTime, QLocale
from PySide6.QtWidgets import QToolButton, QWidget

from memory_desk.ui import dates
from memory_desk.ui.i18n import translate
from memory_desk.ui.live.folders import MODE_POLLING
from memory_desk.ui.plain import as_shown


class LiveIndicator(QToolButton):
    """Checked while live reload is on; ``toggled(bool)`` is the person's click."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("liveIndicator")
        self.setCheckable(True)
        self.setChecked(True)
        self.setAutoRaise(True)
        self.setAccessibleName(translate("LiveIndicator", "Live reload"))
        self._registry = None

    def follow(self, registry) -> None:  # noqa: ANN001 - a SourceRegistry (it imports ui/live)
        """Show what ``registry`` follows, now and whenever a source or the state changes."""
        self._registry = registry
        registry.added.connect(self.show_registry)
        registry.live_changed.connect(self.show_registry)
        self.show_registry()

    def show_registry(self, *_args) -> None:
        """The followed registry's state; nothing while no source is open (the welcome page:
        there is nothing to follow)."""
        registry = self._registry
        watcher = registry.folder_watcher
        self.setVisible(bool(registry.sources()))
        self.show_state(
            live=registry.is_live(),
            polling=watcher.mode == MODE_POLLING,
            reason=watcher.fallback_reason,
            last_change=registry.last_change,
        )

    def show_state(
        self, *, live: bool, polling: bool, reason: str, last_change: float | None
    ) -> None:
        """Say the state: paused, live or live by polling (``reason`` says why polling), and
        when the last change from disk was seen (``time.time()`` seconds, or None)."""
        text, tips = _words(live, polling, reason)
        if last_change is not None:
            ms = int(last_change * 1000)
            stamp = QLocale().toString(QDateTime.fromMSecsSinceEpoch(ms).time(), "HH:mm:ss")
            text = translate("LiveIndicator", "{state} · {time}").format(state=text, time=stamp)
            tips.append(
                translate("LiveIndicator", "Last change from disk: {time}").format(
                    time=dates.exact(ms)
                )
            )
        tip = "\n".join(tips)
        self.setText(text)
        self.setToolTip(as_shown(tip))
        self.setAccessibleDescription(tip)


def _words(live: bool, polling: bool, reason: str) -> tuple[str, list[str]]:
    """The button's text and its tooltip's lines."""
    if not live:
        return translate("LiveIndicator", "⏸ Paused"), [
            translate("LiveIndicator", "Live reload is paused: click to follow the agents again")
        ]
    tips = [
        translate(
            "LiveIndicator", "Live reload is on: what agents write shows at once. Click to pause."
        )
    ]
    if not polling:
        return translate("LiveIndicator", "● Live"), tips
    tips.append(
        translate(
            "LiveIndicator", "File events are not available here, so folders are polled: {reason}"
        ).format(reason=reason)
    )
    return translate("LiveIndicator", "● Live (polling)"), tips
