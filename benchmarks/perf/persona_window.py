"""The persona page's figures at thousands of entries, in the real window (offscreen).

``build_folder(path, count, seed)`` writes a folder exactly as agent-kit writes one (FORMATS.md,
part B): kebab-case names, the four header keys in the agent's order, a blank line, the trimmed
body and a final newline; descriptions and bodies drawn from a seeded vocabulary of made-up
words, so a filter word matches a realistic share of the entries, not all of them.

``measure(folder, repeats)`` returns samples in milliseconds, each with its raw reference
measured in the same process:

- ``listed``: ``create_main_window(["--persona", folder])`` to the first paint of the entry
  list holding rows (the time the paint event reached the list); the app's modules are
  imported before (a fresh window each time, so every file is read; the page shows the
  newest entries first while it reads the others); reference ``raw_list``: ``os.scandir`` and
  reading every entry file's bytes.
- ``listed_all``: the same window, to the first paint of the list holding every entry (the
  listing complete, editing possible).
- ``save``: a click on Save (an edited body) to the page showing the saved state (the click
  returns and the events it posted, paints included, are processed), once the window has
  settled (its background work done); ``save_at_open``: the same, as soon as the listing is
  complete (the sidebar's count and the journal's first look may still run); reference
  ``raw_write``:
  writing the same bytes to a temporary file, ``fsync``, and renaming it over a file.
- ``filter_keystroke``: a key typed in the filter box to the first paint of the list after the
  list shows that text's rows (a debounce, if any, is inside the figure).
- ``agent_reload``: the agent rewrites one entry, the window is told (as the watcher tells
  it) and shows the new version (no reference: compare with ``raw_list``).

The saves change the entries they save (body and ``updated``), as a person's would.
Run it on its own: ``python benchmarks/perf/persona_window.py FOLDER_OR_SIZE [--repeats N]``.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

KEYS = (
    "listed",
    "listed_all",
    "save",
    "save_at_open",
    "filter_keystroke",
    "raw_list",
    "raw_write",
    "agent_reload",
)
FILTER_WORD = "vel"  # typed after a rare vocabulary word's first letters (see _filter_text)
_SYLLABLES = [
    "ka",
    "ri",
    "mo",
    "te",
    "lu",
    "sa",
    "vi",
    "no",
    "pe",
    "da",
    "zo",
    "fi",
    "gu",
    "ha",
    "ne",
    "bo",
    "ti",
    "ra",
    "me",
    "su",
    "li",
    "ko",
    "ve",
    "ja",
    "wa",
    "yu",
    "ce",
    "xo",
    "qui",
    "tra",
    "ple",
    "dor",
    "mun",
    "sek",
    "fal",
    "gri",
    "vos",
    "bel",
    "tun",
]
_BASE_TIME = 1_767_225_600  # 2026-01-01T00:00:00Z


# -- the folder --------------------------------------------------------------------------------


def _vocabulary(rng: random.Random, size: int) -> list[str]:
    """``size`` distinct made-up words of two to four syllables."""
    words: set[str] = set()
    while len(words) < size:
        words.add("".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 4))))
    return sorted(words)


def _words(rng: random.Random, vocabulary: list[str], count: int) -> str:
    """``count`` words drawn Zipf-like (rank r with odds about 1/r: a few common, most rare)."""
    top = len(vocabulary)
    picks = (vocabulary[min(top - 1, int(top ** rng.random()) - 1)] for _ in range(count))
    return " ".join(picks)


def agent_file(name: str, description: str, type_: str, updated: str, body: str) -> bytes:
    """One entry file exactly as agent-kit writes it."""
    return (
        f"---\nname: {name}\ndescription: {description}\ntype: {type_}\nupdated: {updated}\n"
        f"---\n\n{body.strip()}\n"
    ).encode()


def _iso(seconds: float) -> str:
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds))
    return f"{stamp}.{int(seconds * 1000) % 1000:03d}Z"


def build_folder(path: Path, count: int, seed: int = 0) -> Path:
    """A persona folder of ``count`` entries as agent-kit writes them; returns ``path``.

    Deterministic for a (count, seed): a cache can keep it. Written in place (the folder is
    created if needed; existing entry files of the same names are overwritten).
    """
    rng = random.Random(seed)
    vocabulary = _vocabulary(rng, 20_000)
    rng.shuffle(vocabulary)
    path.mkdir(parents=True, exist_ok=True)
    names: set[str] = set()
    for _ in range(count):
        while True:
            name = "-".join(vocabulary[rng.randrange(len(vocabulary))] for _ in range(2))
            name = f"{name}-{rng.randrange(1000)}" if name in names else name
            if name not in names:
                break
        names.add(name)
        description = _words(rng, vocabulary, rng.randint(4, 12)).capitalize()
        body = "\n".join(
            _words(rng, vocabulary, rng.randint(8, 30)).capitalize() + "."
            for _ in range(rng.randint(1, 6))
        )
        updated = _iso(_BASE_TIME + rng.random() * 365 * 86_400)
        type_ = "feedback" if rng.random() < 0.4 else "user"
        (path / f"{name}.md").write_bytes(agent_file(name, description, type_, updated, body))
    return path


# -- raw references ----------------------------------------------------------------------------


def raw_list(folder: Path) -> float:
    """ms to list the folder and read every entry file's bytes: what any listing must do."""
    start = time.perf_counter()
    with os.scandir(folder) as it:
        for item in it:
            if item.name.endswith(".md") and not item.name.startswith("."):
                with open(item.path, "rb") as handle:
                    handle.read()
    return (time.perf_counter() - start) * 1000


def raw_write(folder: Path, data: bytes) -> float:
    """ms to write ``data`` to a temporary file, fsync it and rename it over a file."""
    target = folder / ".raw-write-reference"
    tmp = folder / ".raw-write-reference.tmp"
    start = time.perf_counter()
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, target)
    elapsed = (time.perf_counter() - start) * 1000
    target.unlink()
    return elapsed


# -- the window --------------------------------------------------------------------------------


def _app():
    from PySide6.QtWidgets import QApplication

    return QApplication.instance() or QApplication(["persona-bench"])


def _child(window, kind, name: str):
    found = window.findChild(kind, name)
    if found is None:
        raise RuntimeError(f"no {kind.__name__} named {name!r} in the window")
    return found


class _PaintWatch:
    """Counts paints of a widget (the entry list's viewport) through an event filter, and
    keeps, per paint, when it came and what ``state()`` said then (if given)."""

    def __init__(self, widget, state: Callable[[], object] | None = None) -> None:
        from PySide6.QtCore import QEvent, QObject

        class Filter(QObject):
            def eventFilter(inner, _obj, event) -> bool:  # noqa: N802, N805
                if event.type() == QEvent.Type.Paint:
                    self.paints += 1
                    if state is not None:
                        self.marks.append((time.perf_counter(), state()))
                return False

        self.paints = 0
        self.marks: list[tuple[float, object]] = []
        self._filter = Filter()
        self._widget = widget
        widget.installEventFilter(self._filter)

    def first(self, wanted: Callable[[object], bool]) -> float | None:
        """When the first paint whose state is ``wanted`` came (None: none yet)."""
        return next((at for at, state in self.marks if wanted(state)), None)

    def remove(self) -> None:
        self._widget.removeEventFilter(self._filter)


def _wait(condition: Callable[[], bool], timeout_s: float = 30.0) -> None:
    """Run the event loop until ``condition`` holds, checked every millisecond.

    The loop sleeps between events, as the app's own loop does. (Until 2026-12-04 this
    called ``processEvents()`` in a busy loop: a Python spinner on the window's thread that
    the app does not have, which took the interpreter's lock from the page's workers and
    made every listing several times slower.)"""
    from PySide6.QtCore import QEventLoop, QTimer

    if condition():
        return
    loop = QEventLoop()
    deadline = time.perf_counter() + timeout_s
    timed_out = []

    def check() -> None:
        if condition():
            loop.quit()
        elif time.perf_counter() > deadline:
            timed_out.append(True)
            loop.quit()

    timer = QTimer()
    timer.setInterval(1)
    timer.timeout.connect(check)
    timer.start()
    loop.exec()
    timer.stop()
    if timed_out:
        raise TimeoutError("the window did not get there in time")


def _close(window) -> None:
    from PySide6.QtWidgets import QMessageBox

    original = QMessageBox.question
    QMessageBox.question = lambda *_a, **_k: QMessageBox.StandardButton.Discard
    try:
        window.close()
        if hasattr(window, "shutdown"):
            window.shutdown()
        window.deleteLater()
        _app().processEvents()
    finally:
        QMessageBox.question = original


def _forget_what_was_read() -> None:
    """Empty the process-wide parse cache and the shared folder passes of a checkout that
    still has them (so a comparison with it reads every file too)."""
    try:
        from memory_desk.core.persona.scan import SHARED
    except ImportError:
        pass
    else:
        SHARED.clear()
    from memory_desk.core import folder_stats

    passes = getattr(folder_stats, "PASSES", None)
    if passes is not None:
        passes.forget()


def time_listed(folder: Path) -> tuple[float, float, float]:
    """ms from ``create_main_window`` to the first paint of the list holding rows, to the
    first paint of the list holding every entry, and (settled: the sidebar's count done)
    one save."""
    from PySide6.QtWidgets import QAbstractItemView

    from memory_desk.app import create_main_window

    total = sum(1 for name in os.listdir(folder) if name.endswith(".md"))
    _forget_what_was_read()  # every file parsed, as in a person's start (a process of its own)
    start = time.perf_counter()
    window = create_main_window(["--persona", str(folder)])
    window.show()
    view = _child(window, QAbstractItemView, "personaList")
    page = window.persona_page
    watch = _PaintWatch(view.viewport(), lambda: (view.model().rowCount(), page.is_listing()))

    def rows(state) -> bool:
        return state[0] > 0

    def every(state) -> bool:
        return state[0] >= total and not state[1]

    _wait(lambda: watch.first(rows) is not None)
    _wait(lambda: watch.first(every) is not None)
    first = (watch.first(rows) - start) * 1000
    whole = (watch.first(every) - start) * 1000
    watch.remove()
    try:
        at_open = time_saves(window, folder, 1)[0][0]
    finally:
        _close(window)
    return first, whole, at_open


def _open(folder: Path):
    """A window on ``folder``, settled: the listing done, and the background work it started
    (the sidebar's count, the journal's first look) given time to end."""
    from PySide6.QtWidgets import QAbstractItemView

    from memory_desk.app import create_main_window

    window = create_main_window(["--persona", str(folder)])
    window.show()
    view = _child(window, QAbstractItemView, "personaList")
    page = window.persona_page
    _wait(lambda: view.model().rowCount() > 0 and not page.is_listing())
    _wait(lambda: not window.sidebar.is_counting(), timeout_s=60)
    deadline = time.perf_counter() + 25
    while time.perf_counter() < deadline:
        _app().processEvents()
        time.sleep(0.01)
    return window


def _settle(window) -> None:
    """Let every pending paint and timer-less event run."""
    app = _app()
    for _ in range(3):
        app.processEvents()


def time_saves(window, folder: Path, repeats: int) -> tuple[list[float], list[float]]:
    """(save samples, raw_write samples): each save edits the open entry's body first."""
    from PySide6.QtWidgets import QAbstractItemView, QPlainTextEdit, QPushButton

    view = _child(window, QAbstractItemView, "personaList")
    body = _child(window, QPlainTextEdit, "personaBody")
    save = _child(window, QPushButton, "personaSave")
    watch = _PaintWatch(view.viewport())
    saves, raws = [], []
    for n in range(repeats):
        row = _first_entry_row(view, 10 + n)
        view.setCurrentIndex(view.model().index(row, 0))
        _settle(window)
        body.setPlainText(f"{body.toPlainText().split(' [edit')[0]} [edit {n}]")
        _settle(window)
        if not save.isEnabled():
            raise RuntimeError("Save did not enable after an edit")
        painted = watch.paints
        start = time.perf_counter()
        save.click()
        _wait(lambda: not save.isEnabled() and watch.paints > painted)  # noqa: B023
        saves.append((time.perf_counter() - start) * 1000)
        raws.append(raw_write(folder, body.toPlainText().encode()))
    watch.remove()
    return saves, raws


def _first_entry_row(view, at_least: int) -> int:
    """An entry row (not a divider) at or after ``at_least``."""
    from PySide6.QtCore import Qt

    model = view.model()
    for row in range(min(at_least, model.rowCount() - 1), model.rowCount()):
        if model.index(row, 0).data(Qt.ItemDataRole.UserRole):
            return row
    return 0


def _filter_text(window) -> str:
    """A word to type: the first word of a description about a third of the way down."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QAbstractItemView

    view = _child(window, QAbstractItemView, "personaList")
    model = view.model()
    for row in range(model.rowCount() // 3, model.rowCount()):
        text = model.index(row, 2).data(Qt.ItemDataRole.DisplayRole)
        if text:
            return text.split()[0].lower()
    return FILTER_WORD


def time_filter(window, repeats: int) -> list[float]:
    """ms per keystroke: the key to the first paint after the list holds that text's rows.

    The word is typed letter by letter, then cleared with Backspace, ``repeats`` times."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QAbstractItemView, QLineEdit

    view = _child(window, QAbstractItemView, "personaList")
    box = _child(window, QLineEdit, "personaFilter")
    word = _filter_text(window)
    shown = {"n": 0}  # the filter's answers shown so far
    watch = _PaintWatch(view.viewport(), lambda: shown["n"])
    samples: list[float] = []
    box.setFocus()
    for _ in range(repeats):
        keys = [(ch, ch) for ch in word] + [(Qt.Key.Key_Backspace, None)] * len(word)
        for key, _char in keys:
            samples.append(_keystroke(window, view, box, watch, key, shown))
    watch.remove()
    return samples


def _keystroke(window, view, box, watch, key, shown: dict) -> float:
    """One key in the filter box, timed to the first paint of the list after it shows that
    text's rows (taken from the paint events themselves: a paint that comes before this
    function looks is not missed)."""
    from PySide6.QtTest import QTest

    model = view.model()

    def changed(*_args: object) -> None:
        shown["n"] += 1

    signals = (model.modelReset, model.layoutChanged, model.rowsRemoved, model.rowsInserted)
    for signal in signals:
        signal.connect(changed)
    page = getattr(window, "persona_page", None)
    applied = getattr(page, "filter_applied", None)
    if applied is not None:
        applied.connect(changed)
    before, since = shown["n"], len(watch.marks)
    start = time.perf_counter()
    QTest.keyClick(box, key)

    def painted_after() -> float | None:
        return next((at for at, n in watch.marks[since:] if n > before), None)

    try:
        _wait(lambda: painted_after() is not None, timeout_s=5.0)
    finally:
        for signal in signals:
            signal.disconnect(changed)
        if applied is not None:
            applied.disconnect(changed)
    return (painted_after() - start) * 1000


def time_agent_reload(window, folder: Path, repeats: int) -> list[float]:
    """ms from the window being told one entry changed on disk to the list showing it."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QAbstractItemView

    view = _child(window, QAbstractItemView, "personaList")
    page = window.persona_page
    model = view.model()
    samples = []
    changes = {"n": 0}  # (the rows are read only after the model changed: reading 60 rows at
    # every turn of the event loop would hold the interpreter the worker needs)

    def changed(*_args: object) -> None:
        changes["n"] += 1

    for signal in (model.dataChanged, model.rowsMoved, model.rowsInserted, model.modelReset):
        signal.connect(changed)
    for n in range(repeats):
        name = model.index(_first_entry_row(view, 200 + n), 0).data(Qt.ItemDataRole.UserRole)
        description = f"Rewritten by the agent {n}"
        data = agent_file(name, description, "user", _iso(time.time() + 86_400 * 400), "Body.")
        (folder / f"{name}.md").write_bytes(data)
        start = time.perf_counter()
        seen = changes["n"]
        page.reload()
        _wait(
            lambda s=seen, d=description: (
                changes["n"] > s and not page.is_reading() and _shows(view, d)
            )
        )
        _settle(window)
        samples.append((time.perf_counter() - start) * 1000)
    return samples


def _shows(view, description: str) -> bool:
    from PySide6.QtCore import Qt

    model = view.model()
    for row in range(min(60, model.rowCount())):
        if model.index(row, 2).data(Qt.ItemDataRole.DisplayRole) == description:
            return True
    return False


def measure(folder: Path, repeats: int) -> dict[str, list[float]]:
    """Every figure's samples (ms), with its raw reference, measured in this process.

    Creates the QApplication if there is none; opens (and closes) real windows.
    """
    _app()
    import memory_desk.app  # noqa: F401  (the modules a window needs are imported before
    import memory_desk.ui.persona.page  # noqa: F401  the first timed window, as at start)

    folder = Path(folder)
    samples: dict[str, list[float]] = {key: [] for key in KEYS}
    raw_list(folder)  # the page cache warm for both the reference and the window
    for _ in range(repeats):
        samples["raw_list"].append(raw_list(folder))
        first, whole, at_open = time_listed(folder)
        samples["listed"].append(first)
        samples["listed_all"].append(whole)
        samples["save_at_open"].append(at_open)
    window = _open(folder)
    try:
        saves, raws = time_saves(window, folder, repeats)
        samples["save"], samples["raw_write"] = saves, raws
        samples["filter_keystroke"] = time_filter(window, max(1, repeats // 3))
        _child_filter_clear(window)
        samples["agent_reload"] = time_agent_reload(window, folder, repeats)
    finally:
        _close(window)
    return samples


def _child_filter_clear(window) -> None:
    from PySide6.QtWidgets import QLineEdit

    _child(window, QLineEdit, "personaFilter").clear()
    deadline = time.perf_counter() + 1.0
    while time.perf_counter() < deadline:
        _app().processEvents()


# -- on its own --------------------------------------------------------------------------------


def _summary(samples: dict[str, list[float]]) -> str:
    lines = []
    for key, values in samples.items():
        if values:
            ordered = sorted(values)
            p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
            lines.append(
                f"{key:18} median {statistics.median(values):9.2f} ms   p95 {p95:9.2f} ms"
                f"   n={len(values)}"
            )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", help="a persona folder, or a number of entries to build")
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="memory-desk-persona-bench-") as tmp:
        root = Path(tmp)
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
        from perf.qtwatch import private_home

        private_home(root / "home")
        if args.folder.isdigit():
            folder = build_folder(root / "memory", int(args.folder), args.seed)
            time.sleep(3.2)  # files this fresh are never cached (the racy-clean rule)
        else:
            folder = Path(args.folder)
        print(f"{folder}: {sum(1 for _ in folder.glob('*.md'))} entry files")
        print(_summary(measure(folder, args.repeats)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
