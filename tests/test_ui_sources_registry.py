"""SourceRegistry on its own: real databases and folders, no window.

The registry opens each source once, reports the agents' writes through ``changed``, lets
the page holding a database go before its store closes (``replacing``), then reports the
file now at the path (``replaced``), and marks every folder stale when live reload resumes
(its events were dropped while paused). A window plugs in through these signals only.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from memory_desk.core.observations import ObservationStore
from memory_desk.ui.sources import SourceRegistry
from window_helpers import make_database, make_persona_folder

AGENT = Path(__file__).parent / "agents" / "persona_agent.py"
WAIT_MS = 5000


@pytest.fixture
def registry(qapp):
    reg = SourceRegistry()
    yield reg
    reg.stop()
    reg.close_stores()
    reg.deleteLater()


def test_a_source_is_opened_once(registry, tmp_path: Path) -> None:
    db = make_database(tmp_path / "alisio" / "memory.sqlite")
    added = []
    registry.added.connect(added.append)
    first = registry.open_database(db)
    assert registry.open_database(db) is first
    assert registry.find("db", db) is first
    assert added == [first]
    assert first.label == "alisio/memory.sqlite"


def test_a_database_that_cannot_be_opened_is_said(registry, tmp_path: Path) -> None:
    bad = tmp_path / "memory.sqlite"
    bad.write_bytes(b"not a database at all" * 100)
    errors = []
    registry.error.connect(errors.append)
    assert registry.open_database(bad) is None
    assert errors and registry.sources() == []


def test_a_replaced_database_is_let_go_before_it_closes(registry, tmp_path: Path) -> None:
    """The old store is still open when ``replacing`` comes (a page can let go of it), and
    ``replaced`` brings the store of the file now at the path."""
    db = make_database(tmp_path / "memory.sqlite", ("Old note",))
    source = registry.open_database(db)
    old = source.store
    seen: list[tuple[str, object]] = []
    registry.replacing.connect(lambda s: seen.append(("replacing", s.store.identity)))
    registry.replaced.connect(lambda s, message, problem: seen.append(("replaced", message)))
    other = make_database(tmp_path / "other.sqlite", ("Other note",))
    os.replace(other, db)  # another program renames a file over it

    registry.reopen_if_replaced(source)

    assert [kind for kind, _ in seen] == ["replacing", "replaced"]
    assert seen[0][1] == old.identity  # still readable then
    assert "was replaced by another file" in seen[1][1]
    assert isinstance(source.store, ObservationStore) and source.store is not old
    assert source.store.search()[0].title == "Other note"


def test_an_agent_write_to_a_folder_is_reported(qtbot, registry, tmp_path: Path) -> None:
    folder = make_persona_folder(tmp_path / ".miyagi" / "memory")
    source = registry.open_persona_folder(folder)
    with qtbot.waitSignal(registry.changed, timeout=WAIT_MS) as blocker:
        proc = subprocess.run(
            [sys.executable, str(AGENT), str(folder), "likes-sushi", "user", "Sushi", "Sushi."],
            capture_output=True,
            text=True,
            check=False,
        )
        assert proc.returncode == 0, proc.stderr
    assert blocker.args == [source]
    assert registry.last_change is not None


def test_resuming_live_reload_marks_every_folder_stale(registry, tmp_path: Path) -> None:
    """Folder events are dropped while paused: whoever shows a folder must read it again."""
    source = registry.open_persona_folder(make_persona_folder(tmp_path / "notes"))
    registry.set_live(False)
    assert not registry.is_live() and not source.stale
    registry.set_live(True)
    assert source.stale
