"""Light and dark: one palette, one application style sheet, one set of named colours.

The person chooses ``system`` (the default: follow the desktop's colour scheme), ``light`` or
``dark`` (setting ``ui/theme``, View ▸ Theme, ``--theme``). A forced theme uses the Fusion
style with this module's palette; ``system`` keeps the platform's palette and only switches
when the desktop does.

Widgets never write colours. They say what they are and this module colours them:

- a banner or bar: ``set_tone(widget, "info" | "warning" | "error")``;
- a line of text: ``set_text_tone(label, "subdued" | "error" | "warning" | "ok")``;
- what is painted (badges, highlights, diffs): ``colors()`` at paint time.

Everything re-colours at once when the theme changes: the style sheet is rebuilt and the
``notifier().changed`` signal asks painted views to repaint. Every pair of text and background
colours here keeps a contrast of at least 4.5:1 (WCAG AA), checked by the tests.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from PySide6.QtCore import QObject, QSettings, Qt, Signal
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication, QStyleFactory, QWidget

from memory_desk.core.alisio import OBSERVATION_TYPES

THEMES = ("system", "light", "dark")
THEME_KEY = "ui/theme"

TYPE_NAMES = OBSERVATION_TYPES  # every type the plugin writes has its badge colours


@dataclass(frozen=True)
class Tone:
    background: str
    border: str
    text: str


@dataclass(frozen=True)
class Colors:
    dark: bool
    window: str
    base: str
    text: str
    subdued: str  # secondary text on window and base
    error_text: str
    warning_text: str
    ok_text: str
    link: str
    tones: dict[str, Tone]
    badges: dict[str, tuple[str, str]]  # type name -> (background, text)
    badge_unknown: tuple[str, str]
    persona_badges: dict[str, tuple[str, str]]
    match: tuple[str, str]  # search match: background, text
    diff_added: tuple[str, str]
    diff_removed: tuple[str, str]
    syntax: dict[str, str] = field(default_factory=dict)

    def badge(self, type_name: str) -> tuple[str, str]:
        return self.badges.get(type_name, self.badge_unknown)

    def tone(self, name: str) -> Tone:
        return self.tones.get(name, self.tones["info"])


LIGHT = Colors(
    dark=False,
    window="#f6f6f7",
    base="#ffffff",
    text="#1b1d21",
    subdued="#5d6470",
    error_text="#b42318",
    warning_text="#8a4b08",
    ok_text="#1d6b35",
    link="#1f5fbf",
    tones={
        "info": Tone("#e7f0fd", "#7aa2e3", "#1c3d8a"),
        "warning": Tone("#fff4e0", "#d9a441", "#6b3f06"),
        "error": Tone("#fde7e9", "#d77b84", "#8a1c24"),
        "ok": Tone("#e6f4ea", "#7fbf94", "#1d5b30"),
    },
    badges={
        "decision": ("#1d4ed8", "#ffffff"),
        "bugfix": ("#b91c1c", "#ffffff"),
        "discovery": ("#6d28d9", "#ffffff"),
        "pattern": ("#0f766e", "#ffffff"),
        "architecture": ("#b13d0b", "#ffffff"),
        "config": ("#475569", "#ffffff"),
        "preference": ("#be185d", "#ffffff"),
        "learning": ("#15803d", "#ffffff"),
    },
    badge_unknown=("#5f6673", "#ffffff"),
    persona_badges={
        "user": ("#dbe9ff", "#1c3d8a"),
        "feedback": ("#e3f5dd", "#2b6a1a"),
        "": ("#eeeeee", "#444444"),
    },
    match=("#ffe58a", "#1b1d21"),
    diff_added=("#dcf5e3", "#14532d"),
    diff_removed=("#fde2e1", "#7f1d1d"),
    syntax={
        "heading": "#7a3e9d",
        "list": "#9a4f00",
        "quote": "#5f6b7a",
        "code": "#2e6b31",
        "link": "#1f5fbf",
    },
)

DARK = Colors(
    dark=True,
    window="#1f2125",
    base="#16181b",
    text="#e6e8eb",
    subdued="#a9b0bb",
    error_text="#ff8f86",
    warning_text="#f5c46b",
    ok_text="#7ed99a",
    link="#8ab4f8",
    tones={
        "info": Tone("#1c2b44", "#3d5f99", "#cfe0ff"),
        "warning": Tone("#3a2b0f", "#8a6420", "#fde3b0"),
        "error": Tone("#42191c", "#8c3a41", "#ffd3d6"),
        "ok": Tone("#15311f", "#3c7a50", "#c8f1d4"),
    },
    badges={
        "decision": ("#3b6fe0", "#ffffff"),
        "bugfix": ("#c93636", "#ffffff"),
        "discovery": ("#8150e0", "#ffffff"),
        "pattern": ("#127a70", "#ffffff"),
        "architecture": ("#b4511c", "#ffffff"),
        "config": ("#5b6678", "#ffffff"),
        "preference": ("#c2306e", "#ffffff"),
        "learning": ("#1f7d41", "#ffffff"),
    },
    badge_unknown=("#5f6673", "#ffffff"),
    persona_badges={
        "user": ("#243b63", "#d7e6ff"),
        "feedback": ("#23452a", "#d2f2cb"),
        "": ("#3a3d42", "#e0e0e0"),
    },
    match=("#8a6d00", "#ffffff"),
    diff_added=("#173824", "#c9f2d6"),
    diff_removed=("#46191b", "#ffd6d6"),
    syntax={
        "heading": "#d5a6f5",
        "list": "#f5b56b",
        "quote": "#a9b3c1",
        "code": "#8fd694",
        "link": "#8ab4f8",
    },
)


class _Notifier(QObject):
    changed = Signal()


_notifier: _Notifier | None = None
_choice = "system"
_system_style: str | None = None
_system_palette: QPalette | None = None


def notifier() -> _Notifier:
    """``notifier().changed`` fires after the theme changed (painted views repaint on it)."""
    global _notifier
    if _notifier is None:
        _notifier = _Notifier(QApplication.instance())
    return _notifier


def is_dark(palette: QPalette | None = None) -> bool:
    palette = palette or QApplication.palette()
    return palette.color(QPalette.ColorRole.Window).lightnessF() < 0.5


def colors() -> Colors:
    """The named colours of the theme in effect."""
    return DARK if is_dark() else LIGHT


def current_choice() -> str:
    return _choice


def choose_theme(option: str | None, settings: QSettings | None) -> str:
    for wanted in (option, settings.value(THEME_KEY) if settings is not None else None):
        if isinstance(wanted, str) and wanted.lower() in THEMES:
            return wanted.lower()
    return "system"


def palette_for(c: Colors) -> QPalette:
    p = QPalette()
    role = QPalette.ColorRole
    group = QPalette.ColorGroup
    pairs = {
        role.Window: c.window,
        role.WindowText: c.text,
        role.Base: c.base,
        role.AlternateBase: "#23262b" if c.dark else "#f3f4f6",
        role.Text: c.text,
        role.Button: "#2a2d32" if c.dark else "#eceef1",
        role.ButtonText: c.text,
        role.ToolTipBase: "#2a2d32" if c.dark else "#ffffe8",
        role.ToolTipText: c.text,
        role.PlaceholderText: c.subdued,
        role.BrightText: "#ffffff",
        role.Highlight: "#2f5fb3" if c.dark else "#2a62c9",
        role.HighlightedText: "#ffffff",
        role.Link: c.link,
        role.LinkVisited: c.link,
        role.Light: "#3a3d42" if c.dark else "#ffffff",
        role.Midlight: "#2f3237" if c.dark else "#e3e5e8",
        role.Mid: "#4a4e55" if c.dark else "#b8bcc3",
        role.Dark: "#101113" if c.dark else "#8d929a",
        role.Shadow: "#000000",
    }
    for which, colour in pairs.items():
        p.setColor(which, QColor(colour))
    for which in (role.WindowText, role.Text, role.ButtonText):
        p.setColor(group.Disabled, which, QColor("#6c717a" if c.dark else "#9aa0a8"))
    return p


def style_sheet(c: Colors) -> str:
    parts = []
    for name, tone in c.tones.items():
        parts.append(
            f'*[tone="{name}"] {{ background: {tone.background}; border: 1px solid {tone.border};'
            f" border-radius: 4px; }}"
            f' *[tone="{name}"] QLabel {{ color: {tone.text}; background: transparent;'
            f" border: none; }}"
            f' QLabel[tone="{name}"] {{ color: {tone.text}; padding: 4px; }}'
        )
    for name, colour in (
        ("subdued", c.subdued),
        ("error", c.error_text),
        ("warning", c.warning_text),
        ("ok", c.ok_text),
    ):
        parts.append(f'QLabel[textTone="{name}"] {{ color: {colour}; }}')
    # Fusion outlines check boxes a shade darker than the window: 2:1 on light, invisible on
    # dark. Controls need 3:1 (WCAG), so both themes draw their own.
    from memory_desk.ui.resources import resource_path

    tick = resource_path("icons", "check-light.svg").as_posix()
    checked = "#2f5fb3" if c.dark else "#2a62c9"
    parts.append(
        f"QCheckBox::indicator {{ width: 13px; height: 13px; border: 1px solid {c.subdued};"
        f" border-radius: 3px; background: {c.base}; }}"
        f" QCheckBox::indicator:checked {{ background: {checked}; border-color: {checked};"
        f' image: url("{tick}"); }}'
        f" QCheckBox::indicator:disabled {{ border-color: {c.subdued}; background: {c.window}; }}"
    )
    return "\n".join(parts)


def _polish(widget: QWidget) -> None:
    style = widget.style()
    style.unpolish(widget)
    style.polish(widget)
    widget.update()


def set_tone(widget: QWidget, tone: str | None) -> None:
    """Colour a banner or bar as ``info``, ``warning``, ``error`` or ``ok`` (``None``: plain)."""
    if widget.property("tone") == tone:
        return
    widget.setProperty("tone", tone)
    _polish(widget)
    for child in widget.findChildren(QWidget):
        _polish(child)


def set_text_tone(widget: QWidget, tone: str | None) -> None:
    """Colour a line of text: ``subdued``, ``error``, ``warning``, ``ok`` (``None``: plain)."""
    if widget.property("textTone") == tone:
        return
    widget.setProperty("textTone", tone)
    _polish(widget)


def apply_theme(choice: str, app: QApplication | None = None) -> str:
    """Put ``choice`` (system, light or dark) in effect now; returns it."""
    global _choice, _system_style, _system_palette
    app = app or QApplication.instance()
    choice = choice if choice in THEMES else "system"
    if _system_style is None:
        _system_style = app.style().name() or app.style().objectName() or "Fusion"
        _system_palette = QPalette(app.palette())
        hints = QGuiApplication.styleHints()
        if hasattr(hints, "colorSchemeChanged"):
            hints.colorSchemeChanged.connect(_on_system_scheme)
    _choice = choice
    if choice == "system":
        dark = _system_is_dark()
        if dark == is_dark(_system_palette):  # the platform's own palette fits: keep it
            app.setStyle(QStyleFactory.create(_system_style) or app.style())
            app.setPalette(_system_palette)
        else:  # the desktop says dark but the platform palette is light (or the reverse)
            app.setStyle("Fusion")
            app.setPalette(palette_for(DARK if dark else LIGHT))
    else:
        app.setStyle("Fusion")
        app.setPalette(palette_for(DARK if choice == "dark" else LIGHT))
    app.setStyleSheet(style_sheet(colors()))
    notifier().changed.emit()
    return choice


def _system_is_dark() -> bool:
    hints = QGuiApplication.styleHints()
    scheme = getattr(hints, "colorScheme", None)
    if scheme is not None:
        value = scheme()
        if value == Qt.ColorScheme.Dark:
            return True
        if value == Qt.ColorScheme.Light:
            return False
    return is_dark(_system_palette)


def _on_system_scheme(*_args) -> None:
    if _choice == "system":
        apply_theme("system")


def contrast(first: str | QColor, second: str | QColor) -> float:
    """WCAG contrast ratio of two colours (1 to 21)."""

    def luminance(colour: QColor) -> float:
        def channel(value: float) -> float:
            return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4

        return (
            0.2126 * channel(colour.redF())
            + 0.7152 * channel(colour.greenF())
            + 0.0722 * channel(colour.blueF())
        )

    a, b = sorted((luminance(QColor(first)), luminance(QColor(second))), reverse=True)
    return (a + 0.05) / (b + 0.05)
