"""The Pruning assistant in the real window, driven by object names.

Apply forgets exactly the checked rows in one transaction (the data version, read from
another connection, steps once) and one undo brings them all back; persona duplicates go to
the trash and back as real files; Cancel stops a search with nothing proposed; every string is
translated and every control named.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QLabel,
    QProgressBar,
    QPushButton,
    QTextEdit,
    QTreeWidget,
    QTreeWidgetItem,
)

from memory_desk.core.persona_format import render_new_file
from memory_desk.core.word_diff import ADDED, REMOVED
from memory_desk.ui.widgets.side_by_side import marked_runs
from test_pruning_core import build_crafted
from ui_strings import marked_language, unnamed, untranslated

pytest_plugins = ["window_fixture"]


def _page(window):
    window.show_page("pruning")
    return window.pruning_page


def _wait_found(qtbot, page) -> None:
    qtbot.waitUntil(lambda: not page.is_busy() and page.findings is not None, timeout=20_000)


def _proposed(tree: QTreeWidget) -> list[tuple[str, object, bool]]:
    """(reason, key, checked) of every checkable leaf."""
    found = []
    for g in range(tree.topLevelItemCount()):
        branch = tree.topLevelItem(g)
        for r in range(branch.childCount()):
            leaf = branch.child(r)
            if leaf.flags() & Qt.ItemFlag.ItemIsUserCheckable:
                checked = leaf.checkState(0) == Qt.CheckState.Checked
                found.append(
                    (
                        branch.data(0, Qt.ItemDataRole.UserRole + 1),
                        leaf.data(0, Qt.ItemDataRole.UserRole),
                        checked,
                    )
                )
    return found


def _live(path: Path) -> set[int]:
    with sqlite3.connect(path) as conn:
        return {r[0] for r in conn.execute("SELECT id FROM observations WHERE deleted_at IS NULL")}


def test_apply_forgets_checked_rows_in_one_transaction_and_undo_restores(
    qtbot, open_window, tmp_path: Path
) -> None:
    crafted = build_crafted(tmp_path / "memory.sqlite")
    window = open_window(["--db", str(crafted.path)])
    page = _page(window)
    _wait_found(qtbot, page)
    tree = page.findChild(QTreeWidget, "pruningCandidates")
    leaves = _proposed(tree)
    assert leaves and not any(checked for _, _, checked in leaves)  # nothing until chosen
    assert not page.findChild(QPushButton, "pruningApplyButton").isEnabled()
    # Each group's own checkbox checks its candidates, never its kept row.
    for g in range(tree.topLevelItemCount()):
        branch = tree.topLevelItem(g)
        assert branch.checkState(0) == Qt.CheckState.Unchecked
        branch.setCheckState(0, Qt.CheckState.Checked)
        kept = [
            branch.child(r)
            for r in range(branch.childCount())
            if not branch.child(r).flags() & Qt.ItemFlag.ItemIsUserCheckable
        ]
        assert all(
            leaf.data(0, Qt.ItemDataRole.UserRole) not in page.tree.checked_keys() for leaf in kept
        )
    assert all(checked for _, _, checked in _proposed(tree))
    # Uncheck one copy: it stays live, and its group shows partly checked.
    near = crafted.ids["dup-1"]  # (a candidate beside dup-0; dup-2 is the row kept)
    for g in range(tree.topLevelItemCount()):
        branch = tree.topLevelItem(g)
        for r in range(branch.childCount()):
            if branch.child(r).data(0, Qt.ItemDataRole.UserRole) == near:
                branch.child(r).setCheckState(0, Qt.CheckState.Unchecked)
    chosen = set(page.tree.checked_keys())
    assert near not in chosen and crafted.ids["dup-0"] in chosen
    near_groups = [
        tree.topLevelItem(g)
        for g in range(tree.topLevelItemCount())
        if any(
            tree.topLevelItem(g).child(r).data(0, Qt.ItemDataRole.UserRole) == near
            for r in range(tree.topLevelItem(g).childCount())
        )
    ]
    assert near_groups
    for branch in near_groups:
        checkable = [
            r
            for r in range(branch.childCount())
            if branch.child(r).flags() & Qt.ItemFlag.ItemIsUserCheckable
        ]
        expected = (
            Qt.CheckState.Unchecked if len(checkable) == 1 else Qt.CheckState.PartiallyChecked
        )
        assert branch.checkState(0) == expected
    watcher = sqlite3.connect(crafted.path)
    version = watcher.execute("PRAGMA data_version").fetchone()[0]
    before = _live(crafted.path)
    stack = page.undo_stack
    count = stack.count()
    page.findChild(QPushButton, "pruningApplyButton").click()
    qtbot.waitUntil(lambda: stack.count() == count + 1, timeout=10_000)
    qtbot.waitUntil(lambda: not page.is_writing())
    assert watcher.execute("PRAGMA data_version").fetchone()[0] == version + 1  # one commit
    assert _live(crafted.path) == before - chosen
    stack.undo()
    qtbot.waitUntil(lambda: _live(crafted.path) == before, timeout=10_000)
    qtbot.waitUntil(lambda: not page.is_writing())
    assert watcher.execute("PRAGMA data_version").fetchone()[0] == version + 2
    stack.redo()
    qtbot.waitUntil(lambda: _live(crafted.path) == before - chosen, timeout=10_000)
    qtbot.waitUntil(lambda: not page.is_writing())
    watcher.close()
    _wait_found(qtbot, page)


def _entry(folder: Path, name: str, body: str, updated: str) -> None:
    text = render_new_file(
        name=name, description=f"About {name}", type="user", updated=updated, body=body
    )
    (folder / f"{name}.md").write_text(text, encoding="utf-8")


def test_persona_duplicates_go_to_the_trash_and_come_back(
    qtbot, open_window, tmp_path: Path
) -> None:
    folder = tmp_path / ".miyagi" / "memory"
    other = tmp_path / ".padawan" / "memory"
    for f in (folder, other):
        f.mkdir(parents=True)
        _entry(f, "likes-tea", "Offer green tea.", "2026-10-01T00:00:00.000Z")
    _entry(folder, "tea-please", "offer   GREEN tea.", "2026-10-02T00:00:00.000Z")
    _entry(folder, "name-carmen", "Her name is Carmen.", "2026-10-02T00:00:00.000Z")
    window = open_window(["--persona", str(folder), "--persona", str(other)])
    page = _page(window)
    if page.source is None or Path(page.source.path) != folder:
        page.set_source(next(s.store for s in window.registry.sources() if s.path == folder))
    _wait_found(qtbot, page)
    assert [key for _, key, _ in _proposed(page.tree)] == ["likes-tea"]
    page.findChild(QPushButton, "pruningCheckAll").click()
    original = (folder / "likes-tea.md").read_bytes()
    count = page.undo_stack.count()
    own_writes: list[str] = []
    page.file_written.connect(own_writes.append)  # the window tells live reload: not an agent
    page.findChild(QPushButton, "pruningApplyButton").click()
    assert page.undo_stack.count() == count + 1
    assert not (folder / "likes-tea.md").exists()
    assert (other / "likes-tea.md").exists()  # another agent's folder is never touched
    assert own_writes == [str(folder / "likes-tea.md")]
    page.undo_stack.undo()
    assert (folder / "likes-tea.md").read_bytes() == original
    assert own_writes == [str(folder / "likes-tea.md")] * 2


def test_cancel_stops_the_search_with_nothing_proposed(qtbot, open_window, tmp_path: Path) -> None:
    from alisio_fixtures import build_database

    path = build_database(tmp_path / "memory.sqlite", 8000, seed=3)
    window = open_window(["--db", str(path)])
    page = _page(window)
    qtbot.waitUntil(
        lambda: page.findChild(QProgressBar, "pruningProgress").maximum() > 0 or not page.is_busy(),
        timeout=20_000,
    )
    if not page.is_busy():
        page.load()
    page.findChild(QPushButton, "pruningCancelButton").click()
    qtbot.waitUntil(lambda: not page.is_busy(), timeout=20_000)
    assert page.findings is None and page.tree.topLevelItemCount() == 0
    assert not page.findChild(QPushButton, "pruningApplyButton").isEnabled()


def test_a_row_the_agent_pinned_since_the_search_is_not_forgotten(
    qtbot, open_window, tmp_path: Path
) -> None:
    crafted = build_crafted(tmp_path / "memory.sqlite")
    window = open_window(["--db", str(crafted.path)])
    page = _page(window)
    _wait_found(qtbot, page)
    page.findChild(QPushButton, "pruningCheckAll").click()
    chosen = set(page.tree.checked_keys())
    pinned_since = crafted.ids["dup-0"]
    assert pinned_since in chosen
    with sqlite3.connect(crafted.path) as agent:  # the plugin's own pin: pinned only
        agent.execute("UPDATE observations SET pinned = 1 WHERE id = ?", (pinned_since,))
    told: list[str] = []
    page.info_raised.connect(told.append)
    before = _live(crafted.path)
    page.tree.checked_keys = lambda: sorted(chosen)  # the rows checked when the search ended
    page.findChild(QPushButton, "pruningApplyButton").click()
    qtbot.waitUntil(lambda: not page.is_writing(), timeout=10_000)
    qtbot.waitUntil(lambda: _live(crafted.path) == before - (chosen - {pinned_since}))
    assert pinned_since in _live(crafted.path)
    assert any("changed since the search" in text for text in told)


def test_changes_during_a_search_queue_one_more_search_instead_of_restarting(
    qtbot, open_window, tmp_path: Path
) -> None:
    from alisio_fixtures import build_database

    path = build_database(tmp_path / "memory.sqlite", 8000, seed=3)
    window = open_window(["--db", str(path)])
    page = _page(window)
    loads: list[int] = []
    original = page.load
    page.load = lambda: (loads.append(1), original())[1]
    if not page.is_busy():
        page.refresh()
    assert page.is_busy()
    started = len(loads)
    for _ in range(5):  # an agent saving faster than the search lasts
        page.refresh()
    assert len(loads) == started  # the running search was not restarted
    qtbot.waitUntil(lambda: len(loads) == started + 1, timeout=30_000)  # exactly one more
    _wait_found(qtbot, page)
    assert len(loads) == started + 1 and page.findings is not None


def test_every_string_translated_and_every_control_named(
    qtbot, open_window, tmp_path: Path
) -> None:
    crafted = build_crafted(tmp_path / "memory.sqlite")
    with marked_language():
        window = open_window(["--db", str(crafted.path)])
        page = _page(window)
        _wait_found(qtbot, page)
        assert untranslated(page) == []
        assert unnamed(page) == []


def _leaf(tree: QTreeWidget, key) -> QTreeWidgetItem:
    for g in range(tree.topLevelItemCount()):
        branch = tree.topLevelItem(g)
        for r in range(branch.childCount()):
            if branch.child(r).data(0, Qt.ItemDataRole.UserRole) == key:
                return branch.child(r)
    raise AssertionError(f"no row {key} in the tree")


def test_a_group_opens_side_by_side_and_keep_this_one_checks_the_others(
    qtbot, open_window, tmp_path: Path
) -> None:
    crafted = build_crafted(tmp_path / "memory.sqlite")
    window = open_window(["--db", str(crafted.path)])
    page = _page(window)
    _wait_found(qtbot, page)
    tree = page.findChild(QTreeWidget, "pruningCandidates")
    kept_view = page.findChild(QTextEdit, "pruningCompareKept")
    candidate_view = page.findChild(QTextEdit, "pruningCompareCandidate")
    keep = page.findChild(QPushButton, "pruningKeepThisButton")
    assert not keep.isEnabled()  # nothing selected: nothing to compare
    dup0, dup1, dup2 = (crafted.ids[f"dup-{n}"] for n in range(3))
    tree.setCurrentItem(_leaf(tree, dup0))
    qtbot.waitUntil(lambda: "dup-0" in candidate_view.toPlainText(), timeout=10_000)
    assert "dup-2" in kept_view.toPlainText()  # the row the group keeps, on the left
    assert marked_runs(kept_view, REMOVED) == ["2"]  # only the titles differ ("dup-2")
    assert marked_runs(candidate_view, ADDED) == ["0"]
    assert keep.isEnabled() and page.tree.checked_keys() == []
    keep.click()  # keep dup-0 instead: the others of its group are checked, dup-0 is not
    assert set(page.tree.checked_keys()) == {dup1, dup2}
    assert not _leaf(tree, dup0).flags() & Qt.ItemFlag.ItemIsUserCheckable
    qtbot.waitUntil(lambda: "dup-0" in kept_view.toPlainText(), timeout=10_000)
    summary = page.findChild(QLabel, "pruningSummary").text()
    assert "nothing is deleted" in summary
    before = _live(crafted.path)
    page.findChild(QPushButton, "pruningApplyButton").click()
    qtbot.waitUntil(lambda: _live(crafted.path) == before - {dup1, dup2}, timeout=10_000)
    assert dup0 in _live(crafted.path)
