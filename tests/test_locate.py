"""memory_desk.core.locate against fake homes and real config files on disk."""

from __future__ import annotations

import ast
import json
import os
import sys
from pathlib import Path

import pytest

from memory_desk.core.locate import (
    DEFAULT_SETTINGS,
    AlisioLocation,
    locate_alisio,
    locate_persona_folders,
)


@pytest.fixture
def home(tmp_path: Path) -> Path:
    path = tmp_path / "home"
    path.mkdir()
    return path


def write_config(config_home: Path, memory: object, *, raw: str | None = None) -> Path:
    config_home.mkdir(parents=True, exist_ok=True)
    path = config_home / "config.json"
    text = raw if raw is not None else json.dumps({"builtinPlugins": {"memory": memory}})
    path.write_text(text, encoding="utf-8")
    return path


def touch_db(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"")
    return path


# -- State home and the default database --------------------------------------------------


def test_falls_back_to_local_state_under_home(home: Path) -> None:
    location = locate_alisio(env={}, home=home)
    assert location.db_path == home / ".local/state/alisio/memory.sqlite"
    assert location.state_home == home / ".local/state/alisio"
    assert not location.exists
    assert location.enabled
    assert location.config_path is None
    assert location.settings == dict(DEFAULT_SETTINGS)
    assert location.problems == ()


def test_home_comes_from_the_environment_when_not_given(home: Path) -> None:
    if os.name == "nt":
        pytest.skip("HOME is not how Windows finds the home folder")
    location = locate_alisio(env={"HOME": str(home)})
    assert location.db_path == home / ".local/state/alisio/memory.sqlite"


def test_xdg_state_home_wins_over_the_fallback(home: Path, tmp_path: Path) -> None:
    state = tmp_path / "xdg-state"
    db = touch_db(state / "alisio" / "memory.sqlite")
    location = locate_alisio(env={"XDG_STATE_HOME": str(state)}, home=home)
    assert location.db_path == db
    assert location.exists


def test_alisio_state_home_wins_over_xdg(home: Path, tmp_path: Path) -> None:
    own = tmp_path / "alisio-state"
    env = {"ALISIO_STATE_HOME": str(own), "XDG_STATE_HOME": str(tmp_path / "xdg")}
    location = locate_alisio(env=env, home=home)
    # ALISIO_STATE_HOME is the folder itself, with no "alisio" appended.
    assert location.db_path == own / "memory.sqlite"


def test_empty_variables_count_as_unset(home: Path) -> None:
    env = {"ALISIO_STATE_HOME": "", "XDG_STATE_HOME": "", "ALISIO_CONFIG_HOME": ""}
    location = locate_alisio(env=env, home=home)
    assert location.db_path == home / ".local/state/alisio/memory.sqlite"


def test_same_rules_on_every_os(home: Path) -> None:
    """Alisio ignores the macOS/Windows folder conventions; so do we."""
    location = locate_alisio(env={}, home=home)
    assert "Library" not in location.db_path.parts
    assert "AppData" not in location.db_path.parts


def test_default_environment_is_the_process_environment(private_home: Path) -> None:
    """With no arguments, the real environment (here conftest's private XDG folders)."""
    location = locate_alisio()
    assert location.db_path == private_home / ".local/state/alisio/memory.sqlite"


# -- The global config --------------------------------------------------------------------


def test_config_from_xdg_config_home(home: Path, tmp_path: Path) -> None:
    config = write_config(tmp_path / "xdg-config" / "alisio", {"recallLimit": 3})
    location = locate_alisio(env={"XDG_CONFIG_HOME": str(tmp_path / "xdg-config")}, home=home)
    assert location.config_path == config
    assert location.settings["recallLimit"] == 3
    assert location.configured == frozenset({"recallLimit"})


def test_config_from_alisio_config_home_wins(home: Path, tmp_path: Path) -> None:
    write_config(tmp_path / "xdg-config" / "alisio", {"recallLimit": 3})
    own = write_config(tmp_path / "own-config", {"recallLimit": 5})
    env = {
        "ALISIO_CONFIG_HOME": str(tmp_path / "own-config"),
        "XDG_CONFIG_HOME": str(tmp_path / "xdg-config"),
    }
    location = locate_alisio(env=env, home=home)
    assert location.config_path == own
    assert location.settings["recallLimit"] == 5


def test_config_fallback_under_home(home: Path) -> None:
    config = write_config(home / ".config" / "alisio", {"defaultScope": "personal"})
    location = locate_alisio(env={}, home=home)
    assert location.config_path == config
    assert location.settings["defaultScope"] == "personal"


def test_absolute_db_path_overrides_the_state_home(home: Path, tmp_path: Path) -> None:
    db = touch_db(tmp_path / "elsewhere" / "mem.sqlite")
    write_config(home / ".config" / "alisio", {"dbPath": str(db)})
    location = locate_alisio(env={"ALISIO_STATE_HOME": str(tmp_path / "state")}, home=home)
    assert location.db_path == db
    assert location.exists
    assert location.db_path_from_config


def test_relative_db_path_is_resolved_from_the_config_folder(home: Path, tmp_path: Path) -> None:
    config_home = tmp_path / "cfg"
    write_config(config_home, {"dbPath": "../data/./memory.sqlite"})
    location = locate_alisio(env={"ALISIO_CONFIG_HOME": str(config_home)}, home=home)
    assert location.db_path == tmp_path / "data" / "memory.sqlite"
    assert location.db_path.is_absolute()
    assert not location.exists


def test_the_documented_example_config(home: Path) -> None:
    """The config shown in the plugin's documentation, verbatim in meaning."""
    config_home = home / ".config" / "alisio"
    memory = {
        "enabled": True,
        "dbPath": "./memory.sqlite",
        "injectBudgetTokens": 1500,
        "recallLimit": 8,
        "autoSummary": True,
        "defaultScope": "project",
    }
    write_config(config_home, memory)
    location = locate_alisio(env={}, home=home)
    assert location.db_path == config_home / "memory.sqlite"
    assert location.settings == dict(DEFAULT_SETTINGS)
    assert location.configured == frozenset(DEFAULT_SETTINGS)
    assert location.problems == ()


def test_disabled_plugin_is_reported(home: Path) -> None:
    touch_db(home / ".local/state/alisio/memory.sqlite")
    write_config(home / ".config" / "alisio", {"enabled": False})
    location = locate_alisio(env={}, home=home)
    assert not location.enabled
    assert location.exists  # an old database stays readable
    assert location.problems == ()


def test_config_without_the_memory_section_means_defaults(home: Path) -> None:
    write_config(home / ".config" / "alisio", None, raw='{"theme": "dark"}')
    location = locate_alisio(env={}, home=home)
    assert location.enabled
    assert location.settings == dict(DEFAULT_SETTINGS)
    assert location.problems == ()


def test_settings_out_of_range_fall_back_to_defaults_with_a_problem(home: Path) -> None:
    memory = {
        "injectBudgetTokens": 50,
        "recallLimit": True,
        "autoSummary": "yes",
        "defaultScope": "global",
    }
    write_config(home / ".config" / "alisio", memory)
    location = locate_alisio(env={}, home=home)
    assert location.settings == dict(DEFAULT_SETTINGS)
    assert location.configured == frozenset()
    assert len(location.problems) == 4
    assert any("injectBudgetTokens" in p and "100 to 20000" in p for p in location.problems)


def test_bad_enabled_and_db_path_values_are_reported(home: Path) -> None:
    write_config(home / ".config" / "alisio", {"enabled": "no", "dbPath": 42})
    location = locate_alisio(env={}, home=home)
    assert location.enabled
    assert location.db_path == home / ".local/state/alisio/memory.sqlite"
    assert len(location.problems) == 2


# -- Broken and unreadable configs: reported, never raised --------------------------------


def only_problem(location: AlisioLocation) -> str:
    assert len(location.problems) == 1, location.problems
    return location.problems[0]


def test_invalid_json_is_reported_with_its_position(home: Path) -> None:
    config = write_config(home / ".config" / "alisio", None, raw='{"builtinPlugins": {,}')
    location = locate_alisio(env={}, home=home)
    assert location.config_path == config
    assert location.settings == dict(DEFAULT_SETTINGS)
    assert location.db_path == home / ".local/state/alisio/memory.sqlite"
    problem = only_problem(location)
    assert "not valid JSON" in problem and "line 1" in problem and str(config) in problem


@pytest.mark.parametrize(
    "raw", ['["a list"]', '{"builtinPlugins": 3}', '{"builtinPlugins": {"memory": "on"}}']
)
def test_unexpected_shapes_are_reported(home: Path, raw: str) -> None:
    write_config(home / ".config" / "alisio", None, raw=raw)
    location = locate_alisio(env={}, home=home)
    assert location.enabled
    assert "using defaults" in only_problem(location)


def test_config_that_is_not_utf8_is_reported(home: Path) -> None:
    config = home / ".config" / "alisio" / "config.json"
    config.parent.mkdir(parents=True)
    config.write_bytes(b'{"builtinPlugins": {"memory": {"dbPath": "caf\xe9"}}}')
    location = locate_alisio(env={}, home=home)
    assert "Cannot read" in only_problem(location)


def test_config_that_is_a_folder_is_reported(home: Path) -> None:
    (home / ".config" / "alisio" / "config.json").mkdir(parents=True)
    location = locate_alisio(env={}, home=home)
    assert "is a folder" in only_problem(location)


@pytest.mark.skipif(
    sys.platform == "win32" or os.geteuid() == 0, reason="needs POSIX modes, non-root"
)
def test_unreadable_config_is_reported(home: Path) -> None:
    config = write_config(home / ".config" / "alisio", {"recallLimit": 2})
    config.chmod(0)
    try:
        location = locate_alisio(env={}, home=home)
    finally:
        config.chmod(0o600)
    assert location.config_path == config
    assert "permission denied" in only_problem(location)


def test_database_path_that_is_a_folder_is_reported(home: Path) -> None:
    (home / ".local/state/alisio/memory.sqlite").mkdir(parents=True)
    location = locate_alisio(env={}, home=home)
    assert not location.exists
    assert "not a file" in only_problem(location)


# -- Persona folders ----------------------------------------------------------------------


def entry(folder: Path, name: str = "likes-tea.md") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text("---\nname: x\n---\n\nbody\n", encoding="utf-8")
    return path


def test_finds_agents_with_entries_labelled_by_agent(home: Path) -> None:
    entry(home / ".miyagi" / "memory")
    entry(home / ".padawan" / "memory")
    found = locate_persona_folders(home)
    assert [(f.path, f.agent, f.account, f.label) for f in found] == [
        (home / ".miyagi/memory", "miyagi", None, "miyagi"),
        (home / ".padawan/memory", "padawan", None, "padawan"),
    ]
    assert not any(f.added for f in found)


def test_account_subfolders_are_listed_after_their_agent(home: Path) -> None:
    memory = home / ".miyagi" / "memory"
    entry(memory)
    entry(memory / "work")
    entry(memory / "school")
    found = locate_persona_folders(home)
    assert [(f.account, f.label) for f in found] == [
        (None, "miyagi"),
        ("school", "miyagi (school)"),
        ("work", "miyagi (work)"),
    ]
    assert all(f.agent == "miyagi" for f in found)


def test_accounts_without_a_main_folder_entry(home: Path) -> None:
    entry(home / ".miyagi" / "memory" / "work")
    found = locate_persona_folders(home)
    assert [(f.path, f.label) for f in found] == [(home / ".miyagi/memory/work", "miyagi (work)")]


def test_folders_without_entry_files_are_skipped(home: Path) -> None:
    (home / ".empty" / "memory").mkdir(parents=True)
    not_entries = home / ".notes" / "memory"
    not_entries.mkdir(parents=True)
    (not_entries / ".hidden.md").write_text("x")
    (not_entries / "readme.txt").write_text("x")
    (not_entries / "folder.md").mkdir()
    (home / ".miyagi" / "memory" / ".cache").mkdir(parents=True)
    entry(home / ".miyagi" / "memory" / ".cache")  # a hidden subfolder is no account
    (home / "visible" / "memory").mkdir(parents=True)
    entry(home / "visible" / "memory")  # only ~/.<agent> folders are agents
    (home / ".tool").mkdir()
    (home / ".tool" / "memory").write_text("a file, not a folder")
    assert locate_persona_folders(home) == []


def test_missing_home_finds_nothing(tmp_path: Path) -> None:
    assert locate_persona_folders(tmp_path / "nobody") == []


def test_added_folders_follow_in_order_even_if_missing_or_empty(home: Path, tmp_path: Path) -> None:
    entry(home / ".miyagi" / "memory")
    notes = tmp_path / "notes"
    missing = tmp_path / "missing"
    found = locate_persona_folders(home, extra=[notes, str(missing)])
    assert [(f.path, f.label, f.added) for f in found] == [
        (home / ".miyagi/memory", "miyagi", False),
        (notes, "notes", True),
        (missing, "missing", True),
    ]


def test_added_folders_in_agent_layout_get_agent_labels(home: Path, tmp_path: Path) -> None:
    other_home = tmp_path / "other"
    found = locate_persona_folders(
        home, extra=[other_home / ".yoda/memory", other_home / ".yoda/memory/lab"]
    )
    assert [(f.agent, f.account, f.label) for f in found] == [
        ("yoda", None, "yoda"),
        ("yoda", "lab", "yoda (lab)"),
    ]


def test_a_folder_is_listed_once(home: Path) -> None:
    memory = home / ".miyagi" / "memory"
    entry(memory)
    found = locate_persona_folders(home, extra=[memory, memory / ".." / "memory"])
    assert len(found) == 1
    assert not found[0].added


@pytest.mark.skipif(
    sys.platform == "win32" or os.geteuid() == 0, reason="needs POSIX modes, non-root"
)
def test_unreadable_folders_are_skipped_not_raised(home: Path) -> None:
    memory = home / ".miyagi" / "memory"
    entry(memory)
    entry(home / ".padawan" / "memory")
    memory.chmod(0)
    try:
        found = locate_persona_folders(home)
    finally:
        memory.chmod(0o755)
    assert [f.agent for f in found] == ["padawan"]


@pytest.mark.skipif(sys.platform == "win32", reason="needs POSIX symlinks")
def test_config_behind_a_symlink_loop_is_reported(home: Path) -> None:
    """Unreadable even for root (CI may run as root, where chmod 0 does not stop reads)."""
    config = home / ".config" / "alisio" / "config.json"
    config.parent.mkdir(parents=True)
    config.symlink_to(config)
    location = locate_alisio(env={}, home=home)
    assert "Cannot read" in only_problem(location)


@pytest.mark.skipif(sys.platform == "win32", reason="needs POSIX symlinks")
def test_persona_folder_behind_a_symlink_loop_is_skipped(home: Path) -> None:
    (home / ".miyagi").mkdir()
    (home / ".miyagi" / "memory").symlink_to(home / ".miyagi" / "memory")
    entry(home / ".padawan" / "memory")
    assert [f.agent for f in locate_persona_folders(home)] == ["padawan"]


def _defined_names(source: str) -> list[str]:
    names = []
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            names.append(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.append(node.target.id)
        elif isinstance(node, ast.Assign):
            names += [t.id for t in node.targets if isinstance(t, ast.Name)]
    return [name for name in names if not name.startswith("_")]


def test_the_old_module_name_still_reaches_the_core() -> None:
    import memory_desk.core.locate as core_locate
    import memory_desk.locate as old_name

    public = _defined_names(Path(core_locate.__file__).read_text("utf-8"))
    assert "DEFAULT_SETTINGS" in public and "locate_alisio" in public
    assert {name: getattr(old_name, name, None) for name in public} == {
        name: getattr(core_locate, name) for name in public
    }
