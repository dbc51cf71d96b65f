"""The first-run page: where agents keep their memory, and three ways to start."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from memory_desk.ui.i18n import translate

COLUMN_WIDTH = 620


def welcome_text() -> str:
    """The page's text in the person's language: one translated piece per paragraph, each a
    whole thought (the paths and variables inside stay as written)."""
    paragraphs = (
        translate(
            "WelcomePage",
            "Memory Desk shows what your AI agents remember, and lets you prune and correct it. No agent memory was found on this computer yet.",
        ),
        translate(
            "WelcomePage",
            "<b>Alisio</b> keeps its observations in a database file, <code>memory.sqlite</code>, in its state folder: usually <code>~/.local/state/alisio</code>.",
        ),
        translate(
            "WelcomePage",
            "<b>agent-kit agents</b> such as miyagi keep their memory of you as markdown files in <code>~/.&lt;agent&gt;/memory</code>, one folder per agent (and per account).",
        ),
        translate(
            "WelcomePage",
            "Once an agent has written something, Memory Desk finds it by itself. Meanwhile:",
        ),
    )
    heading = translate("WelcomePage", "Welcome to Memory Desk")
    return f"<h1>{heading}</h1>" + "".join(f"<p>{text}</p>" for text in paragraphs)


class WelcomePage(QWidget):
    """Shown when no store was found or given.

    Signals:
        demo_requested(): the person wants to try the demo
        open_database_requested(): the person wants to pick a memory.sqlite
        open_folder_requested(): the person wants to pick a persona folder
    """

    demo_requested = Signal()
    open_database_requested = Signal()
    open_folder_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("welcomePage")
        self.setAccessibleName(translate("WelcomePage", "Welcome"))
        # A fixed-width column centred by stretches: an aligned word-wrapped label would
        # be given its one-line height and cut off.
        column = QWidget(self)
        column.setFixedWidth(COLUMN_WIDTH)
        column_layout = QVBoxLayout(column)
        text = QLabel(welcome_text(), column)
        text.setToolTip(
            translate(
                "WelcomePage",
                "Alisio's database is $ALISIO_STATE_HOME/memory.sqlite, else"
                " $XDG_STATE_HOME/alisio/memory.sqlite, else ~/.local/state/alisio/memory.sqlite,"
                " unless its config.json sets dbPath.",
            )
        )
        text.setObjectName("welcomeText")
        text.setWordWrap(True)
        text.setTextFormat(Qt.TextFormat.RichText)
        column_layout.addWidget(text)
        for name, label, tip, signal in (
            (
                "welcomeDemo",
                translate("WelcomePage", "Open the demo"),
                translate("WelcomePage", "Explore a made-up memory; your files are not touched"),
                self.demo_requested,
            ),
            (
                "welcomeOpenDatabase",
                translate("WelcomePage", "Open a database…"),
                translate("WelcomePage", "Pick an Alisio memory.sqlite (Ctrl+O)"),
                self.open_database_requested,
            ),
            (
                "welcomeOpenFolder",
                translate("WelcomePage", "Open a folder…"),
                translate("WelcomePage", "Pick an agent's memory folder (Ctrl+Shift+O)"),
                self.open_folder_requested,
            ),
        ):
            button = QPushButton(label, column)
            button.setObjectName(name)
            button.setToolTip(tip)
            button.setAccessibleDescription(tip)
            button.setMinimumWidth(260)
            button.clicked.connect(signal.emit)
            column_layout.addWidget(button, 0, Qt.AlignmentFlag.AlignHCenter)

        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(column)
        row.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addStretch(1)
        layout.addLayout(row)
        layout.addStretch(2)
