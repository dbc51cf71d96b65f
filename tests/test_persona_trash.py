"""Memory Desk's trash keeps what undo needs and never grows without bound: items of earlier
sessions go by age and by total size (limits in the settings), the current session's stay;
the window applies the limits, and removes what a killed Memory Desk left, when it opens a
folder.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QAbstractItemView, QPushButton

from memory_desk.core.persona import DEFAULT_TRASH_LIMITS, PersonaFolder, TrashLimits, atomic
from memory_desk.core.persona import folder as folder_room
from memory_desk.core.persona.trash import prune
from memory_desk.ui import settings as settings_module
from window_helpers import entry_bytes, make_persona_folder

pytest_plugins = ["window_fixture"]

KB = 1024
TINY_AGE = TrashLimits(max_age_days=1e-9)  # anything older than a tenth of a millisecond


def forget_in_another_session(folder: Path, trash: Path, names: list[str]) -> None:
    """Forget ``names`` one after the other, in an earlier Memory Desk (another process), each
    in a later millisecond than the one before (the trash orders items by when they went)."""
    script = textwrap.dedent(
        """
        import sys
        from pathlib import Path
        from memory_desk.core.persona import PersonaFolder, now_iso
        folder = PersonaFolder(sys.argv[1], trash=Path(sys.argv[2]))
        for name in sys.argv[3:]:
            last = now_iso()
            while now_iso() == last:
                pass
            folder.forget(name)
        """
    )
    subprocess.run(
        [sys.executable, "-c", script, str(folder), str(trash), *names], check=True, timeout=30
    )


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    path = tmp_path / "memory"
    path.mkdir()
    for n, name in enumerate(["oldest", "middle", "newest", "mine"]):
        (path / f"{name}.md").write_bytes(entry_bytes(name, f"{name} " + "x" * (40 * KB + n)))
    return path


def select(page, name: str) -> None:
    view = page.findChild(QAbstractItemView, "personaList")
    model = view.model()
    rows = [model.index(r, 0) for r in range(model.rowCount())]
    view.setCurrentIndex(next(i for i in rows if i.data(Qt.ItemDataRole.UserRole) == name))


def trashed_names(folder: Path, trash: Path) -> list[str]:
    return sorted(t.name for t in PersonaFolder(folder, trash=trash).trashed())


def test_items_older_than_the_age_limit_go(folder: Path, tmp_path: Path) -> None:
    trash = tmp_path / "trash"
    forget_in_another_session(folder, trash, ["oldest", "middle"])
    PersonaFolder(folder, trash=trash).tidy()  # default limits: 30 days
    assert trashed_names(folder, trash) == ["middle", "oldest"]
    PersonaFolder(folder, trash=trash, trash_limits=TINY_AGE).tidy()
    assert trashed_names(folder, trash) == []
    assert [p.name for p in trash.iterdir()] == []  # nothing half-deleted left


def test_the_oldest_items_go_until_the_total_fits_the_size_limit(
    folder: Path, tmp_path: Path
) -> None:
    trash = tmp_path / "trash"
    forget_in_another_session(folder, trash, ["oldest", "middle", "newest"])
    limits = TrashLimits(max_bytes=100 * KB)  # room for two of the three
    PersonaFolder(folder, trash=trash, trash_limits=limits).tidy()
    assert trashed_names(folder, trash) == ["middle", "newest"]
    total = sum(f.stat().st_size for f in trash.rglob("*") if f.is_file())
    assert total <= 100 * KB


def test_what_this_session_can_undo_is_never_pruned(folder: Path, tmp_path: Path) -> None:
    trash = tmp_path / "trash"
    forget_in_another_session(folder, trash, ["oldest"])
    persona = PersonaFolder(folder, trash=trash, trash_limits=TrashLimits(max_age_days=1e-9))
    forgotten = persona.forget("mine")
    renamed = persona.rename(persona.read("newest"), "newest-renamed")
    prune(trash, TrashLimits(max_age_days=1e-9, max_bytes=1), stale_after_s=0)
    assert trashed_names(folder, trash) == ["mine", "newest"]  # an earlier session's went
    assert persona.undo_rename(renamed, "newest").name == "newest"
    assert persona.unforget(forgotten).name == "mine"


def test_each_forget_keeps_the_trash_within_its_limits(folder: Path, tmp_path: Path) -> None:
    """Not only at the next open: a session that forgets a lot prunes as it goes."""
    trash = tmp_path / "trash"
    forget_in_another_session(folder, trash, ["oldest", "middle"])
    PersonaFolder(folder, trash=trash, trash_limits=TrashLimits(max_bytes=50 * KB)).forget("mine")
    assert trashed_names(folder, trash) == ["mine"]  # the oldest first, but never "mine"


def test_an_item_half_made_or_half_deleted_is_never_listed_and_goes_once_stale(
    folder: Path, tmp_path: Path
) -> None:
    trash = tmp_path / "trash"
    forget_in_another_session(folder, trash, ["oldest"])
    (item,) = list(trash.iterdir())
    half_made = trash / f".{item.name}x.incoming"
    half_made.mkdir()
    (half_made / "middle.md").write_bytes(entry_bytes("middle")[:20])
    half_deleted = trash / f".{item.name}.leaving"
    half_deleted.mkdir()
    assert trashed_names(folder, trash) == ["oldest"]
    PersonaFolder(folder, trash=trash).tidy()
    assert half_made.exists() and half_deleted.exists()  # another Memory Desk may be at it
    PersonaFolder(folder, trash=trash).tidy(stale_after_s=0)
    assert sorted(p.name for p in trash.iterdir()) == [item.name]


# -- the limits in the settings ----------------------------------------------------------------


def test_the_limits_are_read_from_the_settings_with_safe_defaults(tmp_path: Path) -> None:
    path = str(tmp_path / "settings.ini")
    settings = QSettings(path, QSettings.Format.IniFormat)
    assert settings_module.trash_limits(settings) == DEFAULT_TRASH_LIMITS
    assert TrashLimits(max_age_days=30, max_bytes=100 * 1024 * 1024) == DEFAULT_TRASH_LIMITS
    settings.setValue(settings_module.TRASH_MAX_AGE_KEY, "7")
    settings.setValue(settings_module.TRASH_MAX_SIZE_KEY, "2.5")
    assert settings_module.trash_limits(settings) == TrashLimits(7, int(2.5 * 1024 * 1024))
    for bad in ("0", "-3", "lots", "inf", "nan"):
        settings.setValue(settings_module.TRASH_MAX_AGE_KEY, bad)
        settings.setValue(settings_module.TRASH_MAX_SIZE_KEY, bad)
        assert settings_module.trash_limits(settings) == DEFAULT_TRASH_LIMITS, bad


def test_the_window_prunes_with_the_settings_limits_and_tidies_when_it_opens_a_folder(
    open_window, qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = make_persona_folder(tmp_path / "memory", ["likes-tea", "name-carmen", "old-news"])
    trash = PersonaFolder(folder).trash  # the window's own trash
    forget_in_another_session(folder, trash, ["old-news"])
    half = atomic.temp_path(folder)
    half.write_bytes(entry_bytes("likes-tea")[:30])  # a save killed half-way
    settings = settings_module.app_settings()
    settings.setValue(settings_module.TRASH_MAX_AGE_KEY, "0.000000001")
    settings_module.sync_private(settings)
    monkeypatch.setattr(folder_room, "STALE_AFTER_S", 0)

    window = open_window(["--persona", str(folder)])
    page = window.persona_page
    assert not half.exists()
    assert trashed_names(folder, trash) == []  # the earlier session's item is past the limit

    select(page, "likes-tea")
    page.findChild(QPushButton, "personaForget").click()
    assert not (folder / "likes-tea.md").exists()
    other = make_persona_folder(tmp_path / "other", ["likes-coffee"])
    assert window.open_persona_folder(other)  # prunes the shared trash: keeps what undo needs
    window.findChild(QAction, "undoAction").trigger()
    assert (folder / "likes-tea.md").read_bytes() == entry_bytes("likes-tea")
