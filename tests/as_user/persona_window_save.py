"""The window, offscreen, run by whoever runs this script: edit an entry's body and Save.

    python persona_window_save.py FOLDER NAME NEW_BODY

Prints one JSON object: what the window shows after the Save (the message bar's kind and
words, the body editor's text, whether Save is still enabled). The tests run it as an
unprivileged user (``setpriv --reuid=nobody``), for whom permissions refuse writes.
"""

from __future__ import annotations

import json
import sys
import time

from PySide6.QtCore import QEventLoop, Qt, QTimer
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QFrame,
    QLabel,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
)

from memory_desk.app import configure_application, create_main_window


def wait_for(condition, what: str, timeout_s: float = 30.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out waiting for {what}")
        loop = QEventLoop()  # (not QTest.qWait: it holds the interpreter's lock asleep)
        QTimer.singleShot(20, loop.quit)
        loop.exec()


def main() -> None:
    folder, name, new_body = sys.argv[1:4]
    app = QApplication(sys.argv[:1])
    configure_application(app)
    window = create_main_window(["--persona", folder])
    window.show()
    page = window.persona_page
    view = page.findChild(QAbstractItemView, "personaList")
    role = Qt.ItemDataRole.UserRole

    def names() -> list[str]:
        model = view.model()
        return [model.index(row, 0).data(role) for row in range(model.rowCount())]

    wait_for(lambda: name in names(), "the entry in the list")
    view.setCurrentIndex(view.model().index(names().index(name), 0))
    editor = page.findChild(QPlainTextEdit, "personaBody")
    wait_for(lambda: editor.toPlainText() != "", "the entry in the editor")
    editor.setPlainText(new_body)
    save = page.findChild(QPushButton, "personaSave")
    save.click()
    bar = window.findChild(QFrame, "messageBar")
    words = window.findChild(QLabel, "messageText")
    wait_for(lambda: bar.isVisible() and words.text() != "", "a message")
    print(
        json.dumps(
            {
                "kind": bar.kind,
                "message": words.text(),
                "body": editor.toPlainText(),
                "save_enabled": save.isEnabled(),
            }
        ),
        flush=True,
    )
    # closing with the unsaved edits kept asks Save/Discard/Cancel: Discard
    QMessageBox.question = staticmethod(lambda *_a, **_k: QMessageBox.StandardButton.Discard)
    window.close()


if __name__ == "__main__":
    main()
