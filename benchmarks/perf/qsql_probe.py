"""The plain reference window: a QSqlQueryModel in a QTableView, in its own process.

    python benchmarks/perf/qsql_probe.py --db DB --out OUT.json --task start|session
        [--spawn-ns N] [--words a,b,c] [--repeats 2]

What a person gets from the simplest Qt program on the same file: a line edit whose every
change sets the same statement the window runs (same WHERE, ranked by the plugin's bm25
with the recency boost, newest first without text) on the model, on the main thread. It is
measured exactly as the Memory Desk probe is (same paint watch, same typing pace), and it
lives in its own process because Memory Desk never loads QtSql.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from perf import qtwatch, rawsql  # noqa: E402
from perf.qtwatch import KeyTyper, TableWatch, now, spin_until  # noqa: E402
from perf.window_probe import KEY_INTERVAL_MS, WINDOW_SIZE  # noqa: E402


class Reference:
    """The line edit, the model and the view, built as a tutorial would build them."""

    def __init__(self, db: Path) -> None:
        from PySide6.QtSql import QSqlDatabase, QSqlQueryModel
        from PySide6.QtWidgets import QLineEdit, QTableView, QVBoxLayout, QWidget

        self.created = now()
        self.db = QSqlDatabase.addDatabase("QSQLITE")
        self.db.setDatabaseName(str(db))
        self.db.setConnectOptions("QSQLITE_OPEN_READONLY")
        if not self.db.open():
            raise SystemExit(f"cannot open {db}: {self.db.lastError().text()}")
        self.window = QWidget()
        self.window.resize(*WINDOW_SIZE)
        self.edit = QLineEdit(self.window)
        self.model = QSqlQueryModel(self.window)
        self.view = QTableView(self.window)
        self.view.setModel(self.model)
        layout = QVBoxLayout(self.window)
        layout.addWidget(self.edit)
        layout.addWidget(self.view)
        self.watch = TableWatch(self.view, self._id_at)
        self.edit.textChanged.connect(self.set_text)
        self.set_text("")
        self.window.show()

    def _id_at(self, row: int) -> int:
        return int(self.model.index(row, 0).data())

    def set_text(self, text: str) -> None:
        from PySide6.QtSql import QSqlQuery

        sql, params = rawsql.rows_query(text)
        query = QSqlQuery(self.db)
        query.prepare(sql)
        for name, value in params.items():
            query.bindValue(f":{name}", value)
        query.exec()
        self.model.setQuery(query)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--task", choices=("start", "session"), default="start")
    parser.add_argument("--spawn-ns", type=int, default=0)
    parser.add_argument("--words", default="")
    parser.add_argument("--repeats", type=int, default=2)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="memory-desk-bench-home-") as home:
        qtwatch.private_home(Path(home))
        app = qtwatch.qt_app()
        ref = Reference(args.db)
        watch = ref.watch
        spin_until(lambda: watch.first_paint_with_rows() is not None, 600_000, step_ms=1)
        painted = watch.first_paint_with_rows()
        result: dict = {
            "start": {
                "spawn_to_paint_ms": (painted - args.spawn_ns) / 1e6 if args.spawn_ns else None,
                "create_to_paint_ms": (painted - ref.created) / 1e6,
                "rss_kb": qtwatch.rss_kb(),
                "rows": ref.model.rowCount(),
            }
        }
        if args.task == "session":
            from PySide6.QtTest import QTest

            typer = KeyTyper(ref.edit, KEY_INTERVAL_MS)
            settled = []
            for _ in range(args.repeats):
                for word in (w for w in args.words.split(",") if w):
                    ref.edit.clear()
                    qtwatch.spin(300)
                    ref.edit.setFocus()
                    typer.type_word(word, lambda letter: QTest.keyClick(ref.edit, letter))
                    qtwatch.spin(600)
                    settled.append({"word": word, "ok": True, "last_change": watch.changes[-1]})
            result["typing"] = {"keys": typer.keys, "settled": settled}
            result["paints"] = watch.paints
            result["changes"] = watch.changes
            result["peak_rss_kb"] = qtwatch.rss_kb("VmHWM")
        ref.window.close()
        app.processEvents()
        qtwatch.write_result(args.out, result)
    os._exit(0)


if __name__ == "__main__":
    sys.exit(main())
