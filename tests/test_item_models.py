"""Every item model of the window is checked by pytest-qt's ``qtmodeltester``.

The models are found in the source (a class whose bases lead to one of Qt's item models), so
a new model without a check fails here. The persona list model is checked here through the
changes it applies as row signals (a filter, an agent's save, entries coming and going, the
prompt's divider moving); the others are checked in the window where they live.
"""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import memory_desk
from memory_desk.core.persona import PROMPT_LIMIT, PersonaFolder
from memory_desk.ui.persona.model import PersonaListModel
from persona_files import agent_file, stamp

SOURCE = Path(memory_desk.__file__).parent
TESTS = Path(__file__).parent
QT_MODELS = {
    "QAbstractItemModel",
    "QAbstractTableModel",
    "QAbstractListModel",
    "QAbstractProxyModel",
    "QIdentityProxyModel",
    "QSortFilterProxyModel",
    "QStandardItemModel",
    "QStringListModel",
}
# Each model, and the test module that runs it under qtmodeltester (a base class that is
# never shown on its own is checked through the model built on it).
CHECKED = {
    "CellTableModel": "test_ui_observations_model.py",  # (as ObservationTableModel)
    "ObservationTableModel": "test_ui_observations_model.py",
    "ChatsModel": "test_ui_chats.py",
    "ReviewListModel": "test_review_window.py",
    "PersonaListModel": "test_item_models.py",
}


def item_models() -> set[str]:
    """The names of the classes in the source whose bases lead to one of Qt's item models."""
    bases: dict[str, set[str]] = {}
    for path in SOURCE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.ClassDef):
                names = {
                    b.id if isinstance(b, ast.Name) else getattr(b, "attr", "") for b in node.bases
                }
                bases.setdefault(node.name, set()).update(names)
    found: set[str] = set()
    grew = True
    while grew:
        grew = False
        for name, parents in bases.items():
            if name not in found and parents & (QT_MODELS | found):
                found.add(name)
                grew = True
    return found


def test_every_item_model_has_a_model_tester_check() -> None:
    assert item_models() == set(CHECKED)
    for model, module in CHECKED.items():
        text = (TESTS / module).read_text("utf-8")
        assert "qtmodeltester.check(" in text, (model, module)


def write_entries(folder: Path, count: int) -> None:
    for n in range(count):
        name = f"entry-{n:03d}"
        (folder / f"{name}.md").write_bytes(agent_file(name, f"About tea {n}", stamp(n), "x."))


def test_the_persona_list_model_under_the_model_tester(qtmodeltester, tmp_path: Path) -> None:
    folder_path = tmp_path / "memory"
    folder_path.mkdir()
    write_entries(folder_path, PROMPT_LIMIT + 5)
    (folder_path / "Not Kebab.md").write_bytes(b"no header, tea\n")  # (below the hidden divider)
    folder = PersonaFolder(folder_path, trash=tmp_path / "trash")
    model = PersonaListModel()
    model.set_entries(folder.entries())
    qtmodeltester.check(model)  # keeps watching every signal below
    separators = len(model.separator_rows())
    assert separators == 2 and model.rowCount() == PROMPT_LIMIT + 6 + separators

    model.set_filter("tea 1")
    assert 0 < model.rowCount() < PROMPT_LIMIT
    model.set_filter("")

    listed = folder.entries()
    newest = dataclasses.replace(listed[-2], body="Now the newest.")  # (moves to the top)
    saved = folder.save(newest)
    model.patch(folder.refresh(written=[saved]), (), (saved,))
    assert model.row_of(saved.name) == 0

    (folder_path / "entry-000.md").unlink()
    model.set_entries(folder.entries())
    assert model.row_of("entry-000") == -1
    write_entries(folder_path, PROMPT_LIMIT + 8)  # (entry-000 back, three more)
    model.set_entries(folder.entries())
    assert model.rowCount() == PROMPT_LIMIT + 9 + separators
