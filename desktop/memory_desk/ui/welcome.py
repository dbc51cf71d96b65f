"""The first-run page: where agents keep their memory, and three ways to start."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

WELCOME_TEXT = """
<h1>Welcome to Memory Desk</h1>
<p>Memory Desk shows what your AI agents remember, and lets you prune and correct it.
No agent memory was found on this computer yet.</p>
<p><b>Alisio</b> keeps its observations in <code>memory.sqlite</code>, in
<code>$ALISIO_STATE_HOME</code>, else <code>$XDG_STATE_HOME/alisio</code>, else
<code>~/.local/state/alisio</code> (unless its config sets <code>dbPath</code>).</p>
<p><b>agent-kit agents</b> such as miyagi keep their memory of you as markdown files in
<code>~/.&lt;agent&gt;/memory</code>, one folder per agent (and per account).</p>
<p>Once an agent has written something, Memory Desk finds it by itself. Meanwhile:</p>
"""
COLUMN_WIDTH = 620


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
        # A fixed-width column centred by stretches: an aligned word-wrapped label would
        # be given its one-line height and cut off.
        column = QWidget(self)
        column.setFixedWidth(COLUMN_WIDTH)
        column_layout = QVBoxLayout(column)
        text = QLabel(WELCOME_TEXT, column)
        text.setObjectName("welcomeText")
        text.setWordWrap(True)
        text.setTextFormat(Qt.TextFormat.RichText)
        column_layout.addWidget(text)
        for name, label, tip, signal in (
            (
                "welcomeDemo",
                "Open the demo",
                "Explore a made-up memory; your files are not touched",
                self.demo_requested,
            ),
            (
                "welcomeOpenDatabase",
                "Open a database…",
                "Pick an Alisio memory.sqlite (Ctrl+O)",
                self.open_database_requested,
            ),
            (
                "welcomeOpenFolder",
                "Open a folder…",
                "Pick an agent's memory folder (Ctrl+Shift+O)",
                self.open_folder_requested,
            ),
        ):
            button = QPushButton(label, column)
            button.setObjectName(name)
            button.setToolTip(tip)
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
